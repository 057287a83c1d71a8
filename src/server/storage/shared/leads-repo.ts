import type { Dialect, Statements } from './statements.js';
import type { LeadRecord, LeadsRepo } from '../leads-repo.js';
import { LeadRow, toLead } from '../rows/leads.js';

export class SqlLeadsRepo implements LeadsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(l: LeadRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO leads (id, account_id, brand_id, first_name, last_name, email, phone, consent, consent_text, captured_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(l.id, l.accountId, l.brandId, l.firstName, l.lastName, l.email, l.phone, this.dialect.flag(l.consent), l.consentText, l.capturedAt, l.createdAt);
  }

  /** A brand's leads, oldest first. */
  async listForBrand(brandId: string): Promise<LeadRecord[]> {
    return (await this.db.prepare('SELECT * FROM leads WHERE brand_id = ? ORDER BY created_at, seq').all(brandId) as LeadRow[]).map(toLead);
  }
}
