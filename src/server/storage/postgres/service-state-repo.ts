import type { Sql } from './sql.js';
import { pgDialect } from './dialect.js';
import { STATE_CHANNEL } from './channels.js';
import { stateNotice } from './peers.js';
import { SqlServiceStateRepo } from '../shared/service-state-repo.js';

// A write notifies the other replicas (they re-read the clock), delivered at COMMIT.
const SET = `WITH written AS (INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING key)
  SELECT pg_notify('${STATE_CHANNEL}', ?) FROM written`;

/**
 * The state written once (shared/service-state-repo.ts), whose writes also tell the other replicas
 * in the same statement: only this engine has other processes holding the clock.
 */
export class PgServiceStateRepo extends SqlServiceStateRepo {
  constructor(
    db: Sql,
    private readonly sender = '',
  ) {
    super(db, pgDialect);
  }

  override async set(key: string, value: unknown): Promise<void> {
    await this.db.prepare(SET).run(key, JSON.stringify(value), stateNotice(this.sender, key));
  }
}
