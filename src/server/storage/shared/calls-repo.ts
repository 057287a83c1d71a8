import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, column, json, table, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { CallRecord, CallProgress, CallFilters, CallsRepo } from '../calls-repo.js';

// contract §6: Call. `state` is the runner's plain-JSON state (the call engine's for an inbound
// call), rewritten by every step in the transaction that emits the step's events; null once nothing
// is left to run. `trace` is the engine's decisions, kept as long as the call.
const CALLS = table<CallRecord>('calls', {
  id: asIs,
  accountId: asIs,
  numberId: asIs,
  direction: asIs,
  from: column('from_number'),
  to: column('to_number'),
  status: asIs,
  startedAt: asIs,
  answeredAt: asIs,
  endedAt: asIs,
  durationSeconds: asIs,
  answeredBy: asIs,
  answeredDevice: asIs,
  outcome: asIs,
  recordingId: asIs,
  voicemailId: asIs,
  mode: asIs,
  origin: asIs,
  state: json,
  trace: json,
  createdAt: asIs,
  updatedAt: asIs,
});

/** What a step may change (CallProgress), and when. */
const PROGRESS = ['status', 'answeredAt', 'endedAt', 'durationSeconds', 'answeredBy', 'answeredDevice', 'outcome', 'recordingId', 'voicemailId', 'state', 'trace', 'updatedAt'] as const;

export class SqlCallsRepo implements CallsRepo {
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly getStmt;
  private readonly byIdStmt;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    this.insertStmt = db.prepare(CALLS.insertSql());
    this.updateStmt = db.prepare(`UPDATE calls SET ${CALLS.setSql(PROGRESS)} WHERE id = ?`);
    this.getStmt = db.prepare('SELECT * FROM calls WHERE id = ? AND account_id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM calls WHERE id = ?');
  }

  async insert(c: CallRecord): Promise<void> {
    await this.insertStmt.run(...CALLS.values(c, this.d));
  }

  async update(id: string, p: CallProgress, now: number): Promise<void> {
    await this.updateStmt.run(...CALLS.values({ ...p, updatedAt: now }, this.d, PROGRESS), id);
  }

  async get(accountId: string, id: string): Promise<CallRecord | undefined> {
    const row = (await this.getStmt.get(id, accountId)) as Row | undefined;
    return row && CALLS.read(row);
  }

  async getById(id: string): Promise<CallRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && CALLS.read(row);
  }

  async getByRecording(accountId: string, recordingId: string): Promise<CallRecord | undefined> {
    const row = (await this.db.prepare('SELECT * FROM calls WHERE recording_id = ? AND account_id = ?').get(recordingId, accountId)) as Row | undefined;
    return row && CALLS.read(row);
  }

  async list(accountId: string, f: CallFilters, limit: number, cursor?: string): Promise<Page<CallRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status !== undefined) {
      where.push('status = ?');
      params.push(f.status);
    }
    if (f.direction !== undefined) {
      where.push('direction = ?');
      params.push(f.direction);
    }
    return await keysetPage(this.db, { from: 'calls', where, params, limit, cursor, map: CALLS.read });
  }
}
