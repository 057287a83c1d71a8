import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { VoicemailRecord, VoicemailsRepo } from '../voicemails-repo.js';
import { VoicemailRow, toRecord } from '../rows/voicemails.js';

export class SqlVoicemailsRepo implements VoicemailsRepo {
  private readonly insertStmt;
  private readonly getStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
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
