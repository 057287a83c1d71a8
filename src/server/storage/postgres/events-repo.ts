import type { Sql } from './sql.js';
import type { EventRecord, EventsRepo } from '../events-repo.js';
import { toEventRecordAt, type EventRowFields } from '../rows/events.js';

interface EventRow extends EventRowFields {
  /** The feed position (feed-order.ts): NULL until the event is numbered, just after its commit. */
  pos: number | null;
}

/** An event as the domain sees it: `seq` is its feed position (0 in the instant before it has one). */
export const toEventRecord = (r: EventRow): EventRecord => toEventRecordAt(r, Number(r.pos ?? 0));

/**
 * The insert of `n` events of one account, in the order given, without a feed position: the
 * position, and the other replicas' notification, come after the transaction commits
 * (feed-order.ts `sequenceFeed`, run by the store for every account noted in `feedsWritten`).
 * One round trip. Parameters: 5 per row (id, account, type, createdAt, body).
 */
function insertSql(n: number): string {
  const rows = Array.from({ length: n }, () => '(?::text, ?::text, ?::text, ?::bigint, ?::text)').join(', ');
  return `INSERT INTO events (id, account_id, type, created_at, body) VALUES ${rows}`;
}

export class PgEventsRepo implements EventsRepo {
  constructor(private readonly db: Sql) {}

  async insert(e: Omit<EventRecord, 'seq'>): Promise<number> {
    return (await this.insertMany([e]))[0]!;
  }

  /** Returns 0 for each event: its position is given after the commit (see insertSql). */
  async insertMany(events: ReadonlyArray<Omit<EventRecord, 'seq'>>): Promise<number[]> {
    if (events.length === 0) return [];
    for (const e of events) this.db.feedsWritten.add(e.accountId);
    await this.db.prepare(insertSql(events.length)).run(...events.flatMap((e) => [e.id, e.accountId, e.type, e.createdAt, JSON.stringify(e.body)]));
    return events.map(() => 0);
  }

  /**
   * One page of the feed in seq order (spec: Events feed): `limit + 1` rows tell whether there are
   * more. `exact` types and `prefixes` (`message.` for `message.*`) are ORed.
   */
  async feedPage(
    accountId: string,
    r: { afterSeq?: number; beforeSeq?: number; order: 'asc' | 'desc'; limit: number; exact: string[]; prefixes: string[] },
  ): Promise<{ rows: EventRecord[]; hasMore: boolean }> {
    const where = ['account_id = ?', 'pos IS NOT NULL'];
    const params: unknown[] = [accountId];
    if (r.afterSeq !== undefined) {
      where.push('pos > ?');
      params.push(r.afterSeq);
    }
    if (r.beforeSeq !== undefined) {
      where.push('pos < ?');
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
    const sql = `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY pos ${r.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = ((await this.db.prepare(sql).all(...params, r.limit + 1)) as EventRow[]).map(toEventRecord);
    const hasMore = rows.length > r.limit;
    return { rows: hasMore ? rows.slice(0, r.limit) : rows, hasMore };
  }

  async headSeq(accountId: string): Promise<number> {
    const row = await this.db.prepare('SELECT MAX(pos) AS s FROM events WHERE account_id = ?').get(accountId) as { s: number | null };
    return row.s ?? 0;
  }

  async get(accountId: string, id: string): Promise<EventRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM events WHERE id = ? AND account_id = ?').get(id, accountId) as EventRow | undefined;
    return row && toEventRecord(row);
  }

  async listByType(accountId: string, type: string): Promise<EventRecord[]> {
    return (await this.db.prepare('SELECT * FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(accountId, type) as EventRow[]).map(toEventRecord);
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const sql = 'SELECT * FROM events WHERE account_id = ? AND id = ANY(?::text[]) AND pos IS NOT NULL ORDER BY pos';
    return ((await this.db.prepare(sql).all(accountId, [...ids])) as EventRow[]).map(toEventRecord);
  }
}
