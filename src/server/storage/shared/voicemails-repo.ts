import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, column, table, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { VoicemailRecord, VoicemailsRepo } from '../voicemails-repo.js';

const VOICEMAILS = table<VoicemailRecord>('voicemails', {
  id: asIs,
  accountId: asIs,
  callId: asIs,
  numberId: asIs,
  from: column('from_number'),
  to: column('to_number'),
  durationSeconds: asIs,
  transcript: asIs,
  transcriptStatus: asIs,
  receivedAt: asIs,
  createdAt: asIs,
});

export class SqlVoicemailsRepo implements VoicemailsRepo {
  private readonly insertStmt;
  private readonly getStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.insertStmt = db.prepare(VOICEMAILS.insertSql());
    this.getStmt = db.prepare('SELECT * FROM voicemails WHERE id = ? AND account_id = ?');
  }

  async insert(v: VoicemailRecord): Promise<void> {
    await this.insertStmt.run(...VOICEMAILS.values(v, this.d));
  }

  async get(accountId: string, id: string): Promise<VoicemailRecord | undefined> {
    const row = await this.getStmt.get(id, accountId) as Row | undefined;
    return row && VOICEMAILS.read(row);
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<VoicemailRecord>> {
    return await keysetPage(this.db, { from: 'voicemails', where: ['account_id = ?'], params: [accountId], limit, cursor, map: VOICEMAILS.read });
  }
}
