import type { Dialect, Statements } from './statements.js';
import { asIs, table, yesNo, type Row } from './table.js';
import type { LeadRecord, LeadsRepo } from '../leads-repo.js';

// spec: Event catalog `lead.captured`; contract §7 (hosted opt-in page). Table `leads` (migration 8).
const LEADS = table<LeadRecord>('leads', {
  id: asIs,
  accountId: asIs,
  brandId: asIs,
  firstName: asIs,
  lastName: asIs,
  email: asIs,
  phone: asIs,
  consent: yesNo,
  consentText: asIs,
  capturedAt: asIs,
  createdAt: asIs,
});

export class SqlLeadsRepo implements LeadsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(l: LeadRecord): Promise<void> {
    await this.db.prepare(LEADS.insertSql()).run(...LEADS.values(l, this.dialect));
  }

  async listForBrand(brandId: string): Promise<LeadRecord[]> {
    return (await this.db.prepare('SELECT * FROM leads WHERE brand_id = ? ORDER BY created_at, seq').all(brandId) as Row[]).map(LEADS.read);
  }
}
