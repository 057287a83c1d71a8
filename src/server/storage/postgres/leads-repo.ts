import type { Sql } from './sql.js';
import type { LeadRecord, LeadsRepo } from '../leads-repo.js';

// spec: Event catalog `lead.captured`; contract §7 (hosted opt-in page). Table `leads` (migration 8).

interface LeadRow {
  id: string;
  account_id: string;
  brand_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string;
  consent: boolean;
  consent_text: string;
  captured_at: number;
  created_at: number;
}

const toLead = (r: LeadRow): LeadRecord => ({
  id: r.id,
  accountId: r.account_id,
  brandId: r.brand_id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  consent: r.consent,
  consentText: r.consent_text,
  capturedAt: r.captured_at,
  createdAt: r.created_at,
});

export class PgLeadsRepo implements LeadsRepo {
  constructor(private readonly db: Sql) {}

  async insert(l: LeadRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO leads (id, account_id, brand_id, first_name, last_name, email, phone, consent, consent_text, captured_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(l.id, l.accountId, l.brandId, l.firstName, l.lastName, l.email, l.phone, l.consent, l.consentText, l.capturedAt, l.createdAt);
  }

  /** A brand's leads, oldest first. */
  async listForBrand(brandId: string): Promise<LeadRecord[]> {
    return (await this.db.prepare('SELECT * FROM leads WHERE brand_id = ? ORDER BY created_at, seq').all(brandId) as LeadRow[]).map(toLead);
  }
}
