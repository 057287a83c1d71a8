import type { Dialect, Statements } from './statements.js';
import type { SinkRecord, SinkRequestRange, SinkRequestRecord, SinksRepo } from '../sinks-repo.js';
import { asIs, json, table, yesNo, type Row } from './table.js';

const SINKS = table<SinkRecord>('sinks', {
  id: asIs,
  accountId: asIs,
  endpointId: asIs,
  url: asIs,
  respondStatus: asIs,
  failFirst: asIs,
  delayMs: asIs,
  received: asIs,
  createdAt: asIs,
});

/** A new sink has received nothing: `received` keeps its column's default. */
const NEW_SINK = ['id', 'accountId', 'endpointId', 'url', 'respondStatus', 'failFirst', 'delayMs', 'createdAt'] as const;

const SINK_REQUESTS = table<SinkRequestRecord>('sink_requests', {
  sinkId: asIs,
  seq: asIs,
  id: asIs,
  receivedAt: asIs,
  eventId: asIs,
  eventType: asIs,
  attempt: asIs,
  headers: json,
  body: asIs,
  signatureValid: yesNo,
  answeredStatus: asIs,
});

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
    this.insertRequestStmt = db.prepare(SINK_REQUESTS.insertSql());
    this.trimStmt = db.prepare('DELETE FROM sink_requests WHERE sink_id = ? AND seq <= ?');
    this.countStmt = db.prepare('SELECT COUNT(*) AS n FROM sink_requests WHERE sink_id = ? AND event_id = ?');
  }

  async insert(s: Omit<SinkRecord, 'received'>): Promise<void> {
    await this.db.prepare(SINKS.insertSql(NEW_SINK)).run(...SINKS.values(s, this.dialect, NEW_SINK));
  }

  async get(accountId: string, id: string): Promise<SinkRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && row.account_id === accountId ? SINKS.read(row) : undefined;
  }

  async getById(id: string): Promise<SinkRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && SINKS.read(row);
  }

  async byEndpoint(endpointId: string): Promise<SinkRecord | undefined> {
    const row = (await this.db.prepare('SELECT * FROM sinks WHERE endpoint_id = ?').get(endpointId)) as Row | undefined;
    return row && SINKS.read(row);
  }

  async listForAccount(accountId: string): Promise<SinkRecord[]> {
    return ((await this.db.prepare('SELECT * FROM sinks WHERE account_id = ? ORDER BY created_at DESC, seq DESC').all(accountId)) as Row[]).map(SINKS.read);
  }

  async countForEvent(sinkId: string, eventId: string): Promise<number> {
    return ((await this.countStmt.get(sinkId, eventId)) as { n: number }).n;
  }

  async nextPosition(sinkId: string): Promise<number> {
    return ((await this.bumpStmt.get(sinkId)) as { received: number } | undefined)?.received ?? 0;
  }

  async keepAt(r: SinkRequestRecord, keep: number): Promise<void> {
    await this.insertRequestStmt.run(...SINK_REQUESTS.values(r, this.dialect));
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
    const rows = ((await this.db.prepare(sql).all(...params, r.limit + 1)) as Row[]).map(SINK_REQUESTS.read);
    const hasMore = rows.length > r.limit;
    return { rows: hasMore ? rows.slice(0, r.limit) : rows, hasMore };
  }
}
