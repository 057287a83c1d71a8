import type { Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { CallRecord, CallProgress, CallFilters, CallsRepo } from '../calls-repo.js';
import { CallRow, toRecord } from '../rows/calls.js';

export class SqlCallsRepo implements CallsRepo {
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly getStmt;
  private readonly byIdStmt;
  constructor(private readonly db: Statements) {
    this.insertStmt = db.prepare(
      `INSERT INTO calls (id, account_id, number_id, direction, from_number, to_number, status, started_at, answered_at, ended_at,
         duration_seconds, answered_by, answered_device, outcome, recording_id, voicemail_id, mode, origin, state, trace, created_at, updated_at)
       VALUES (@id, @account_id, @number_id, @direction, @from_number, @to_number, @status, @started_at, @answered_at, @ended_at,
         @duration_seconds, @answered_by, @answered_device, @outcome, @recording_id, @voicemail_id, @mode, @origin, @state, @trace, @created_at, @updated_at)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE calls SET status = @status, answered_at = @answered_at, ended_at = @ended_at, duration_seconds = @duration_seconds,
         answered_by = @answered_by, answered_device = @answered_device, outcome = @outcome, recording_id = @recording_id,
         voicemail_id = @voicemail_id, state = @state, trace = @trace, updated_at = @updated_at
       WHERE id = @id`,
    );
    this.getStmt = db.prepare('SELECT * FROM calls WHERE id = ? AND account_id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM calls WHERE id = ?');
  }

  /** Call inside the transaction that opens the call (with its first job). */
  async insert(c: CallRecord): Promise<void> {
    await this.insertStmt.run({
      id: c.id,
      account_id: c.accountId,
      number_id: c.numberId,
      direction: c.direction,
      from_number: c.from,
      to_number: c.to,
      mode: c.mode,
      origin: c.origin,
      created_at: c.createdAt,
      ...progressParams(c, c.updatedAt),
      started_at: c.startedAt,
    });
  }

  /** Writes a step's outcome: the row, the state and the trace together. */
  async update(id: string, p: CallProgress, now: number): Promise<void> {
    await this.updateStmt.run({ id, ...progressParams(p, now) });
  }

  /** The account's call (another account's is not found). */
  async get(accountId: string, id: string): Promise<CallRecord | undefined> {
    const row = await this.getStmt.get(id, accountId) as CallRow | undefined;
    return row && toRecord(row);
  }

  /** For the call's durable jobs, which act on a call whatever the account. */
  async getById(id: string): Promise<CallRecord | undefined> {
    const row = await this.byIdStmt.get(id) as CallRow | undefined;
    return row && toRecord(row);
  }

  /** The call that made this recording (recording ids are unique: migration 6). */
  async getByRecording(accountId: string, recordingId: string): Promise<CallRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM calls WHERE recording_id = ? AND account_id = ?').get(recordingId, accountId) as CallRow | undefined;
    return row && toRecord(row);
  }

  /** Newest first, keyset-paged (contract §2), with the `status` and `direction` filters of contract §6. */
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
    return await keysetPage<CallRow, CallRecord>(this.db, { from: 'calls', where, params, limit, cursor, map: toRecord });
  }
}

function progressParams(p: CallProgress, now: number) {
  return {
    status: p.status,
    answered_at: p.answeredAt,
    ended_at: p.endedAt,
    duration_seconds: p.durationSeconds,
    answered_by: p.answeredBy,
    answered_device: p.answeredDevice,
    outcome: p.outcome,
    recording_id: p.recordingId,
    voicemail_id: p.voicemailId,
    state: p.state === null || p.state === undefined ? null : JSON.stringify(p.state),
    trace: JSON.stringify(p.trace),
    updated_at: now,
  };
}
