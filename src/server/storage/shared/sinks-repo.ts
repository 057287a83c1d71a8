import type { Dialect, Statements } from './statements.js';
import type { SinkRecord, SinkRequestRange, SinkRequestRecord, SinksRepo } from '../sinks-repo.js';
import { SINK_REQUEST_COLUMNS, toSinkRecord, toSinkRequestRecord, type SinkRequestRow, type SinkRow } from '../rows/sinks.js';

export class SqlSinksRepo implements SinksRepo {
  private readonly byIdStmt;
  private readonly bumpStmt;
  private readonly insertRequestStmt;
  private readonly trimStmt;
  private readonly countStmt;
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {
    this.byIdStmt = db.prepare('SELECT * FROM sinks WHERE id = ?');
    // The sink's row is locked to the COMMIT (SQLite's one writer holds the whole database): one
    // sink's requests are kept one after another, so their positions become visible in order (a
    // follower reading after a position misses none).
    this.bumpStmt = db.prepare('UPDATE sinks SET received = received + 1 WHERE id = ? RETURNING received');
    this.insertRequestStmt = db.prepare(`INSERT INTO sink_requests (${SINK_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.trimStmt = db.prepare('DELETE FROM sink_requests WHERE sink_id = ? AND seq <= ?');
    this.countStmt = db.prepare('SELECT COUNT(*) AS n FROM sink_requests WHERE sink_id = ? AND event_id = ?');
  }

  async insert(s: Omit<SinkRecord, 'received'>): Promise<void> {
    await this.db
      .prepare('INSERT INTO sinks (id, account_id, endpoint_id, url, respond_status, fail_first, delay_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(s.id, s.accountId, s.endpointId, s.url, s.respondStatus, s.failFirst, s.delayMs, s.createdAt);
  }

  async get(accountId: string, id: string): Promise<SinkRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as SinkRow | undefined;
    return row && row.account_id === accountId ? toSinkRecord(row) : undefined;
  }

  async getById(id: string): Promise<SinkRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as SinkRow | undefined;
    return row && toSinkRecord(row);
  }

  async byEndpoint(endpointId: string): Promise<SinkRecord | undefined> {
    const row = (await this.db.prepare('SELECT * FROM sinks WHERE endpoint_id = ?').get(endpointId)) as SinkRow | undefined;
    return row && toSinkRecord(row);
  }

  async listForAccount(accountId: string): Promise<SinkRecord[]> {
    return ((await this.db.prepare('SELECT * FROM sinks WHERE account_id = ? ORDER BY created_at DESC, seq DESC').all(accountId)) as SinkRow[]).map(toSinkRecord);
  }

  async countForEvent(sinkId: string, eventId: string): Promise<number> {
    return ((await this.countStmt.get(sinkId, eventId)) as { n: number }).n;
  }

  async nextPosition(sinkId: string): Promise<number> {
    return ((await this.bumpStmt.get(sinkId)) as { received: number } | undefined)?.received ?? 0;
  }

  async keepAt(r: SinkRequestRecord, keep: number): Promise<void> {
    await this.insertRequestStmt.run(r.sinkId, r.seq, r.id, r.receivedAt, r.eventId, r.eventType, r.attempt, JSON.stringify(r.headers), r.body, this.dialect.flag(r.signatureValid), r.answeredStatus);
    await this.trimStmt.run(r.sinkId, r.seq - keep);
  }

  async setAnswered(sinkId: string, seq: number, status: number | null): Promise<void> {
    await this.db.prepare('UPDATE sink_requests SET answered_status = ? WHERE sink_id = ? AND seq = ?').run(status, sinkId, seq);
  }

  async requestsPage(sinkId: string, r: SinkRequestRange): Promise<{ rows: SinkRequestRecord[]; hasMore: boolean }> {
    const where = ['sink_id = ?'];
    const params: unknown[] = [sinkId];
    if (r.afterSeq !== undefined) {
      where.push('seq > ?');
      params.push(r.afterSeq);
    }
    if (r.beforeSeq !== undefined) {
      where.push('seq < ?');
      params.push(r.beforeSeq);
    }
    const sql = `SELECT * FROM sink_requests WHERE ${where.join(' AND ')} ORDER BY seq ${r.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = ((await this.db.prepare(sql).all(...params, r.limit + 1)) as SinkRequestRow[]).map(toSinkRequestRecord);
    const hasMore = rows.length > r.limit;
    return { rows: hasMore ? rows.slice(0, r.limit) : rows, hasMore };
  }
}
