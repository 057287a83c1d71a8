import type { Db } from './database.js';
import type { EventRecord, EventsRepo } from '../events-repo.js';
import { toEventRecordAt, type EventRowFields } from '../rows/events.js';

interface EventRow extends EventRowFields {
  seq: number;
}

export const toEventRecord = (r: EventRow): EventRecord => toEventRecordAt(r, r.seq);

const cellsToEventRecord = (c: unknown[]): EventRecord => ({
  seq: c[0] as number,
  id: c[1] as string,
  accountId: c[2] as string,
  type: c[3] as string,
  createdAt: c[4] as number,
  body: c[5] as Record<string, unknown>,
});

export class SqliteEventsRepo implements EventsRepo {
  private readonly insertStmt;
  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare('INSERT INTO events (id, account_id, type, created_at, body) VALUES (?, ?, ?, ?, ?)');
  }

  async insert(e: Omit<EventRecord, 'seq'>): Promise<number> {
    return Number(this.insertStmt.run(e.id, e.accountId, e.type, e.createdAt, JSON.stringify(e.body)).lastInsertRowid);
  }

  /** One prepared insert each: in process, a statement costs no round trip. */
  async insertMany(events: ReadonlyArray<Omit<EventRecord, 'seq'>>): Promise<number[]> {
    return events.map((e) => Number(this.insertStmt.run(e.id, e.accountId, e.type, e.createdAt, JSON.stringify(e.body)).lastInsertRowid));
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
    // One JSON array per row, the body embedded as JSON (`json(body)`): one parse per event instead
    // of six cells and a parse of the body (a page of 100 events, bench/messages-list).
    const sql = `SELECT json_array(seq, id, account_id, type, created_at, json(body)) AS cells FROM events WHERE ${where.join(' AND ')} ORDER BY seq ${r.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = (this.db.prepare(sql).all(...params, r.limit + 1) as { cells: string }[]).map((row) => cellsToEventRecord(JSON.parse(row.cells) as unknown[]));
    const hasMore = rows.length > r.limit;
    return { rows: hasMore ? rows.slice(0, r.limit) : rows, hasMore };
  }

  async headSeq(accountId: string): Promise<number> {
    const row = this.db.prepare('SELECT MAX(seq) AS s FROM events WHERE account_id = ?').get(accountId) as { s: number | null };
    return row.s ?? 0;
  }

  async get(accountId: string, id: string): Promise<EventRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM events WHERE id = ? AND account_id = ?').get(id, accountId) as EventRow | undefined;
    return row && toEventRecord(row);
  }

  async listByType(accountId: string, type: string): Promise<EventRecord[]> {
    return (this.db.prepare('SELECT * FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(accountId, type) as EventRow[]).map(toEventRecord);
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const sql = 'SELECT * FROM events WHERE account_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY seq';
    return (this.db.prepare(sql).all(accountId, JSON.stringify(ids)) as EventRow[]).map(toEventRecord);
  }
}
