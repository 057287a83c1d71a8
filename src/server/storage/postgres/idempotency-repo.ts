import type { Sql } from './sql.js';
import type { IdempotencyScope, IdempotencyRecord } from '../idempotency-repo.js';
import { INSERT_IN_FLIGHT, SqlIdempotencyRepo } from '../shared/idempotency-repo.js';
import { pgDialect } from './dialect.js';

/**
 * The keys written once (shared/idempotency-repo.ts) but for the claim: this engine's writes run
 * concurrently, so a claim holds the key as it looks, where SQLite's one writer only reads it.
 */
export class PgIdempotencyRepo extends SqlIdempotencyRepo {
  constructor(db: Sql) {
    super(db, pgDialect);
  }

  /**
   * Inserts the key in flight unless a row holds it (no read of the index gap first: an absent key's
   * read would take a predicate lock on the page that concurrent sends' keys are inserted into, and
   * SERIALIZABLE aborted one of each such pair). A row committed by a concurrent transaction after
   * this one's snapshot makes the insert fail with a serialization failure: the write runs again and
   * finds it. Only when a row is there is it read.
   */
  override async claim(s: IdempotencyScope, requestHash: string, now: number): Promise<IdempotencyRecord | undefined> {
    const inserted = await this.db
      .prepare(`${INSERT_IN_FLIGHT} ON CONFLICT (account_id, mode, method, path, key) DO NOTHING`)
      .run(s.accountId, s.mode, s.method, s.path, s.key, requestHash, now);
    return inserted.changes === 1 ? undefined : await this.get(s);
  }
}
