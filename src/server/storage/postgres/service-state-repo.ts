import type { Sql } from './sql.js';
import { STATE_CHANNEL } from './channels.js';
import { stateNotice } from './peers.js';
import type { ServiceStateRepo } from '../service-state-repo.js';

// A write notifies the other replicas (they re-read the clock), delivered at COMMIT.
const SET = `WITH written AS (INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING key)
  SELECT pg_notify('${STATE_CHANNEL}', ?) FROM written`;

/** Small key → JSON values the service keeps about itself (the clock). */
export class PgServiceStateRepo implements ServiceStateRepo {
  constructor(
    private readonly db: Sql,
    private readonly sender = '',
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.prepare('SELECT value FROM service_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.db.prepare(SET).run(key, JSON.stringify(value), stateNotice(this.sender, key));
  }
}
