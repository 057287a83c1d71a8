import type { Sql } from './sql.js';
import { keysetPage } from './pagination.js';
import type { Page } from '../../../api/schemas/page.js';
import type { TranscriptStatus } from '../../../api/values/calls.js';
import type { VoicemailRecord, VoicemailsRepo } from '../voicemails-repo.js';

// contract §6: Voicemail. Written by the call runner in the transaction of the step that captured it
// (the one that emits `voicemail.received`).

interface VoicemailRow {
  seq: number;
  id: string;
  account_id: string;
  call_id: string;
  number_id: string;
  from_number: string;
  to_number: string;
  duration_seconds: number;
  transcript: string | null;
  transcript_status: TranscriptStatus;
  received_at: number;
  created_at: number;
}

const toRecord = (r: VoicemailRow): VoicemailRecord => ({
  id: r.id,
  accountId: r.account_id,
  callId: r.call_id,
  numberId: r.number_id,
  from: r.from_number,
  to: r.to_number,
  durationSeconds: r.duration_seconds,
  transcript: r.transcript,
  transcriptStatus: r.transcript_status,
  receivedAt: r.received_at,
  createdAt: r.created_at,
});

export class PgVoicemailsRepo implements VoicemailsRepo {
  private readonly insertStmt;
  private readonly getStmt;
  constructor(private readonly db: Sql) {
    this.insertStmt = db.prepare(
      `INSERT INTO voicemails (id, account_id, call_id, number_id, from_number, to_number, duration_seconds, transcript, transcript_status, received_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.getStmt = db.prepare('SELECT * FROM voicemails WHERE id = ? AND account_id = ?');
  }

  async insert(v: VoicemailRecord): Promise<void> {
    await this.insertStmt.run(v.id, v.accountId, v.callId, v.numberId, v.from, v.to, v.durationSeconds, v.transcript, v.transcriptStatus, v.receivedAt, v.createdAt);
  }

  /** The account's voicemail (another account's is not found). */
  async get(accountId: string, id: string): Promise<VoicemailRecord | undefined> {
    const row = await this.getStmt.get(id, accountId) as VoicemailRow | undefined;
    return row && toRecord(row);
  }

  /** Newest first, keyset-paged (contract §2). */
  async list(accountId: string, limit: number, cursor?: string): Promise<Page<VoicemailRecord>> {
    return await keysetPage<VoicemailRow, VoicemailRecord>(this.db, { from: 'voicemails', where: ['account_id = ?'], params: [accountId], limit, cursor, map: toRecord });
  }
}
