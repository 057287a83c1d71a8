import type { Dialect, Statements } from './statements.js';
import { readCells, type CellRows } from './cell-rows.js';
import { asIs, json, table, type Row } from './table.js';
import type { EventRecord, EventsRepo } from '../events-repo.js';

/** An event's columns but its feed position, which each engine keeps in its own column (FeedPosition). */
export const EVENTS = table<Omit<EventRecord, 'seq'>>('events', {
  id: asIs,
  accountId: asIs,
  type: asIs,
  createdAt: asIs,
  body: json,
});

/**
 * Where an event's feed position is kept: `seq`, given at insert, unless the engine numbers the feed
 * after commit (postgres/events-repo.ts: `pos`, NULL until then, so `numbered` hides those rows).
 */
export interface FeedPosition {
  column: string;
  numbered: string[];
}

export class SqlEventsRepo implements EventsRepo {
  private readonly insertStmt;
  /** An event as the domain sees it: `seq` is its feed position (0 in the instant before it has one). */
  protected readonly toRecord: (r: Row) => EventRecord;
  /** Rows as JSON cells where the engine reads those faster (Dialect.cells), the body embedded as JSON (`json(body)`): one parse per event instead of six cells and a parse of the body (a page of 100 events, bench/messages-list). */
  private readonly cells: CellRows<EventRecord>;
  constructor(
    protected readonly db: Statements,
    private readonly d: Dialect,
    private readonly feed: FeedPosition = { column: 'seq', numbered: [] },
  ) {
    this.insertStmt = db.prepare(`${EVENTS.insertSql()} RETURNING seq`);
    this.toRecord = (r) => ({ seq: Number(r[feed.column] ?? 0), ...EVENTS.read(r) });
    this.cells = {
      columns: [feed.column, 'id', 'account_id', 'type', 'created_at', 'json(body)'],
      row: ([seq, id, accountId, type, createdAt, body]) => ({ seq, id, accountId, type, createdAt, body }) as EventRecord,
    };
  }

  async insert(e: Omit<EventRecord, 'seq'>): Promise<number> {
    const row = await this.insertStmt.get(...EVENTS.values(e, this.d)) as { seq: number };
    return Number(row.seq);
  }

  /** One prepared insert each: in process, a statement costs no round trip (postgres/events-repo.ts sends one). */
  async insertMany(events: ReadonlyArray<Omit<EventRecord, 'seq'>>): Promise<number[]> {
    const seqs: number[] = [];
    for (const e of events) seqs.push(await this.insert(e));
    return seqs;
  }

  /**
   * One page of the feed in position order (spec: Events feed): `limit + 1` rows tell whether there
   * are more. `exact` types and `prefixes` (`message.` for `message.*`) are ORed.
   */
  async feedPage(
    accountId: string,
    r: { afterSeq?: number; beforeSeq?: number; order: 'asc' | 'desc'; limit: number; exact: string[]; prefixes: string[] },
  ): Promise<{ rows: EventRecord[]; hasMore: boolean }> {
    const pos = this.feed.column;
    const where = ['account_id = ?', ...this.feed.numbered];
    const params: unknown[] = [accountId];
    if (r.afterSeq !== undefined) {
      where.push(`${pos} > ?`);
      params.push(r.afterSeq);
    }
    if (r.beforeSeq !== undefined) {
      where.push(`${pos} < ?`);
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
    const select = this.d.cells(this.cells.columns);
    const sql = `SELECT ${select ?? '*'} FROM events WHERE ${where.join(' AND ')} ORDER BY ${pos} ${r.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    const read = await this.db.prepare(sql).all(...params, r.limit + 1);
    const rows = select === undefined ? (read as Row[]).map(this.toRecord) : readCells(this.cells, select, read);
    const hasMore = rows.length > r.limit;
    return { rows: hasMore ? rows.slice(0, r.limit) : rows, hasMore };
  }

  async headSeq(accountId: string): Promise<number> {
    const row = await this.db.prepare(`SELECT MAX(${this.feed.column}) AS s FROM events WHERE account_id = ?`).get(accountId) as { s: number | null };
    return Number(row.s ?? 0);
  }

  async get(accountId: string, id: string): Promise<EventRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM events WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return row && this.toRecord(row);
  }

  /** In insertion order (`seq`), numbered or not. */
  async listByType(accountId: string, type: string): Promise<EventRecord[]> {
    return (await this.db.prepare('SELECT * FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(accountId, type) as Row[]).map(this.toRecord);
  }

  async getMany(accountId: string, ids: readonly string[]): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    const where = ['account_id = ?', this.d.inList('id'), ...this.feed.numbered].join(' AND ');
    const sql = `SELECT * FROM events WHERE ${where} ORDER BY ${this.feed.column}`;
    return (await this.db.prepare(sql).all(accountId, this.d.list(ids)) as Row[]).map(this.toRecord);
  }
}
