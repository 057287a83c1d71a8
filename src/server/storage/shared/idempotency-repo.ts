import type { Dialect, Statements } from './statements.js';
import { asIs, table, type Row } from './table.js';
import type { IdempotencyScope, IdempotencyRecord, IdempotencyRepo } from '../idempotency-repo.js';

/** A key's record; its scope's columns (SCOPE) are what it is found by. */
const IDEMPOTENCY_KEYS = table<IdempotencyRecord>('idempotency_keys', {
  requestHash: asIs,
  state: asIs,
  status: asIs,
  body: asIs,
  createdAt: asIs,
  answeredAt: asIs,
});

/** `answeredAt` is absent when unknown (NULL). */
const toRecord = (row: Row): IdempotencyRecord => {
  const { answeredAt, ...r } = IDEMPOTENCY_KEYS.read(row);
  return answeredAt === null ? r : { ...r, answeredAt: Number(answeredAt) };
};

const SCOPE = 'account_id = ? AND mode = ? AND method = ? AND path = ? AND key = ?';
const scope = (s: IdempotencyScope) => [s.accountId, s.mode, s.method, s.path, s.key];
const INSERT_DONE = `INSERT INTO idempotency_keys (account_id, mode, method, path, key, request_hash, state, status, body, created_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)`;
/** A new in-flight row (`begin`; postgres/idempotency-repo.ts's claim adds its own conflict clause). */
export const INSERT_IN_FLIGHT = `INSERT INTO idempotency_keys (account_id, mode, method, path, key, request_hash, state, created_at) VALUES (?, ?, ?, ?, ?, ?, 'in_flight', ?)`;

export class SqlIdempotencyRepo implements IdempotencyRepo {
  constructor(
    protected readonly db: Statements,
    private readonly d: Dialect,
  ) {}

  async get(s: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const row = await this.db.prepare(`SELECT ${IDEMPOTENCY_KEYS.columns.join(', ')} FROM idempotency_keys WHERE ${SCOPE}`).get(...scope(s)) as Row | undefined;
    return row && toRecord(row);
  }

  /** One writer at a time: reading the key is holding it (the interface says why other engines differ). */
  async claim(s: IdempotencyScope, _requestHash: string, _now: number): Promise<IdempotencyRecord | undefined> {
    return await this.get(s);
  }

  async begin(s: IdempotencyScope, requestHash: string, now: number): Promise<void> {
    await this.db
      .prepare(
        `${INSERT_IN_FLIGHT}
         ON CONFLICT (account_id, mode, method, path, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight', status = NULL, body = NULL, created_at = excluded.created_at, answered_at = NULL`,
      )
      .run(...scope(s), requestHash, now);
  }

  /**
   * Records a finished request's answer in one write, for a request that never held the key in
   * flight (its whole write ran in the transaction that records it: `commitOnce`). Replaces a row
   * past its 24 h only; the caller has checked there is no live one in the same transaction. The
   * write's last statement: Dialect.runLast.
   */
  async record(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number, answeredAt?: number): Promise<void> {
    const stmt = this.db.prepare(
      `${INSERT_DONE}
       ON CONFLICT (account_id, mode, method, path, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'done', status = excluded.status, body = excluded.body, created_at = excluded.created_at, answered_at = excluded.answered_at`,
    );
    this.d.runLast(stmt, [...scope(s), requestHash, status, body, now, answeredAt ?? null]);
  }

  /** As `record`, with no ON CONFLICT: a row of the key fails the transaction, at its COMMIT at the latest. */
  async recordFirst(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number, answeredAt?: number): Promise<void> {
    this.d.runLast(this.db.prepare(INSERT_DONE), [...scope(s), requestHash, status, body, now, answeredAt ?? null]);
  }

  async complete(s: IdempotencyScope, status: number, body: string): Promise<void> {
    await this.db.prepare(`UPDATE idempotency_keys SET state = 'done', status = ?, body = ? WHERE ${SCOPE}`).run(status, body, ...scope(s));
  }

  async abandon(s: IdempotencyScope): Promise<void> {
    await this.db.prepare(`DELETE FROM idempotency_keys WHERE ${SCOPE} AND state = 'in_flight'`).run(...scope(s));
  }

  async clearInFlight(): Promise<void> {
    await this.db.prepare("DELETE FROM idempotency_keys WHERE state = 'in_flight'").run();
  }

  async purgeOlderThan(cutoff: number): Promise<number> {
    return (await this.db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(cutoff)).changes;
  }
}
