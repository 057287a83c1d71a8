import type { Sql } from './sql.js';
import { EVENTS_CHANNEL, eventNotice } from './peers.js';
import { lockAccountFeed } from './feed-order.js';
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

export class PgEventsRepo implements EventsRepo {
  private readonly insertStmt;
  constructor(
    private readonly db: Sql,
    private readonly sender = '',
  ) {
    // issue 26: the insert notifies the other replicas (held reads, follow streams wake there); the
    // server delivers it at COMMIT, never for a write rolled back. In the same statement: no round trip.
    this.insertStmt = db.prepare(`INSERT INTO events (id, account_id, type, created_at, body) VALUES (?, ?, ?, ?, ?) RETURNING seq, pg_notify('${EVENTS_CHANNEL}', ?)`);
  }

  async insert(e: Omit<EventRecord, 'seq'>): Promise<number> {
    await lockAccountFeed(this.db, e.accountId);
    return ((await this.insertStmt.get(e.id, e.accountId, e.type, e.createdAt, JSON.stringify(e.body), eventNotice(this.sender, e))) as { seq: number }).seq;
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
