import type { Db } from './database.js';

export interface EventRecord {
  seq: number;
  id: string;
  accountId: string;
  type: string;
  createdAt: number;
  /** The webhook body: the event's fields plus `id`, `type` and `createdAt` (spec: Events). */
  body: Record<string, unknown>;
}

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

export class EventsRepo {
  private readonly insertStmt;
  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare('INSERT INTO events (id, account_id, type, created_at, body) VALUES (?, ?, ?, ?, ?)');
  }

  insert(e: Omit<EventRecord, 'seq'>): number {
    return Number(this.insertStmt.run(e.id, e.accountId, e.type, e.createdAt, JSON.stringify(e.body)).lastInsertRowid);
  }

  listForAccount(accountId: string, opts: { afterSeq?: number; beforeSeq?: number; order: 'asc' | 'desc'; limit: number; types?: string[] }): EventRecord[] {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (opts.afterSeq !== undefined) {
      where.push('seq > ?');
      params.push(opts.afterSeq);
    }
    if (opts.beforeSeq !== undefined) {
      where.push('seq < ?');
      params.push(opts.beforeSeq);
    }
    if (opts.types?.length) {
      where.push(`type IN (${opts.types.map(() => '?').join(',')})`);
      params.push(...opts.types);
    }
    const sql = `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY seq ${opts.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    return (this.db.prepare(sql).all(...params, opts.limit) as EventRow[]).map(toEventRecord);
  }

  headSeq(accountId: string): number {
    const row = this.db.prepare('SELECT MAX(seq) AS s FROM events WHERE account_id = ?').get(accountId) as { s: number | null };
    return row.s ?? 0;
  }

  get(accountId: string, id: string): EventRecord | undefined {
    const row = this.db.prepare('SELECT * FROM events WHERE id = ? AND account_id = ?').get(id, accountId) as EventRow | undefined;
    return row && toEventRecord(row);
  }

  listByType(accountId: string, type: string): EventRecord[] {
    return (this.db.prepare('SELECT * FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(accountId, type) as EventRow[]).map(toEventRecord);
  }
}
