import type { Sql } from './sql.js';
import { EVENTS_CHANNEL, eventNotice } from './peers.js';
import { FEED_LOCK, FEED_LOCK_FROM } from './feed-order.js';
import type { EventRecord, EventsRepo } from '../events-repo.js';

interface EventRow {
  seq: number;
  id: string;
  account_id: string;
  type: string;
  created_at: number;
  body: string;
}

export const toEventRecord = (r: EventRow): EventRecord => ({
  seq: r.seq,
  id: r.id,
  accountId: r.account_id,
  type: r.type,
  createdAt: r.created_at,
  body: JSON.parse(r.body) as Record<string, unknown>,
});

/**
 * The insert of `n` events of one account: the account's feed lock (feed-order.ts) taken in the same
 * statement before any position is drawn, the rows given positions in the order of `ord`, and each
 * row's notification to the other replicas (issue 26: held reads and follow streams wake there; the
 * server delivers it at COMMIT, never for a write rolled back). One round trip for all of it.
 * Parameters: 7 per row (id, account, type, createdAt, body, notice, ord), then the lock's two.
 */
function insertSql(n: number): string {
  const rows = Array.from({ length: n }, () => '(?::text, ?::text, ?::text, ?::bigint, ?::text, ?::text, ?::int)').join(', ');
  return `WITH v (id, account_id, type, created_at, body, notice, ord) AS (VALUES ${rows}),
    ins AS (
      INSERT INTO events (id, account_id, type, created_at, body)
      SELECT v.id, v.account_id, v.type, v.created_at, v.body FROM ${FEED_LOCK_FROM}, v ORDER BY v.ord
      RETURNING seq, id)
    SELECT ins.seq, ins.id, pg_notify('${EVENTS_CHANNEL}', v.notice) FROM ins JOIN v USING (id)`;
}

export class PgEventsRepo implements EventsRepo {
  constructor(
    private readonly db: Sql,
    private readonly sender = '',
  ) {}

  async insert(e: Omit<EventRecord, 'seq'>): Promise<number> {
    return (await this.insertMany([e]))[0]!;
  }

  async insertMany(events: ReadonlyArray<Omit<EventRecord, 'seq'>>): Promise<number[]> {
    if (events.length === 0) return [];
    const accountId = events[0]!.accountId;
    if (events.some((e) => e.accountId !== accountId)) throw new Error('insertMany takes the events of one account (one feed lock)');
    const params = events.flatMap((e, i) => [e.id, e.accountId, e.type, e.createdAt, JSON.stringify(e.body), eventNotice(this.sender, e), i]);
    const rows = (await this.db.prepare(insertSql(events.length)).all(...params, FEED_LOCK, accountId)) as Array<{ seq: number; id: string }>;
    const seqOf = new Map(rows.map((r) => [r.id, r.seq]));
    return events.map((e) => seqOf.get(e.id)!);
  }

  /**
   * One page of the feed in seq order (spec: Events feed): `limit + 1` rows tell whether there are
   * more. `exact` types and `prefixes` (`message.` for `message.*`) are ORed.
   */
  async feedPage(
    accountId: string,
    r: { afterSeq?: number; beforeSeq?: number; order: 'asc' | 'desc'; limit: number; exact: string[]; prefixes: string[] },
  ): Promise<{ rows: EventRecord[]; hasMore: boolean }> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (r.afterSeq !== undefined) {
      where.push('seq > ?');
      params.push(r.afterSeq);
    }
    if (r.beforeSeq !== undefined) {
      where.push('seq < ?');
      params.push(r.beforeSeq);
    }
    const typeTerms: string[] = [];
    if (r.exact.length) {
      typeTerms.push(`type IN (${r.exact.map(() => '?').join(',')})`);
      params.push(...r.exact);
    }
    for (const p of r.prefixes) {
      // substr, not LIKE: `_` in type names would be a LIKE wildcard.
      typeTerms.push('substr(type, 1, ?) = ?');
      params.push(p.length, p);
    }
    if (typeTerms.length) where.push(`(${typeTerms.join(' OR ')})`);
    const sql = `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY seq ${r.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = ((await this.db.prepare(sql).all(...params, r.limit + 1)) as EventRow[]).map(toEventRecord);
    const hasMore = rows.length > r.limit;
    return { rows: hasMore ? rows.slice(0, r.limit) : rows, hasMore };
  }

  async headSeq(accountId: string): Promise<number> {
    const row = await this.db.prepare('SELECT MAX(seq) AS s FROM events WHERE account_id = ?').get(accountId) as { s: number | null };
    return row.s ?? 0;
  }

  async get(accountId: string, id: string): Promise<EventRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM events WHERE id = ? AND account_id = ?').get(id, accountId) as EventRow | undefined;
    return row && toEventRecord(row);
  }

  async listByType(accountId: string, type: string): Promise<EventRecord[]> {
    return (await this.db.prepare('SELECT * FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(accountId, type) as EventRow[]).map(toEventRecord);
  }
}
