import type { Db } from './database.js';
import type { CompliancePages, PageConfig } from '../../api/schemas/brands.js';
import type { BrandStatus } from '../../api/values/registration.js';

// spec: Event catalog `lead.captured`; contract §7 (hosted opt-in page). Table `leads` (migration 8).

export interface LeadRecord {
  id: string;
  accountId: string;
  brandId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  /** E.164. */
  phone: string;
  /** The SMS-consent checkbox. */
  consent: boolean;
  /** The exact consent language the page showed. */
  consentText: string;
  capturedAt: number;
  createdAt: number;
}

/** What a hosted page needs of a brand (the brand's own record belongs to the brands repository). */
export interface HostedBrandRecord {
  id: string;
  accountId: string;
  status: BrandStatus;
  legalName: string;
  displayName: string | null;
  website: string | null;
  email: string | null;
  phone: string | null;
  pageConfig: PageConfig | null;
  compliancePages: CompliancePages | null;
}

interface LeadRow {
  id: string;
  account_id: string;
  brand_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string;
  consent: number;
  consent_text: string;
  captured_at: number;
  created_at: number;
}

interface BrandRow {
  id: string;
  account_id: string;
  status: BrandStatus;
  legal_name: string;
  fields: string;
  page_config: string | null;
  compliance_pages: string | null;
}

const toLead = (r: LeadRow): LeadRecord => ({
  id: r.id,
  accountId: r.account_id,
  brandId: r.brand_id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  consent: r.consent === 1,
  consentText: r.consent_text,
  capturedAt: r.captured_at,
  createdAt: r.created_at,
});

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export class LeadsRepo {
  private readonly brandStmt;
  constructor(private readonly db: Db) {
    this.brandStmt = db.prepare('SELECT id, account_id, status, legal_name, fields, page_config, compliance_pages FROM brands WHERE id = ?');
  }

  insert(l: LeadRecord): void {
    this.db
      .prepare(
        `INSERT INTO leads (id, account_id, brand_id, first_name, last_name, email, phone, consent, consent_text, captured_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(l.id, l.accountId, l.brandId, l.firstName, l.lastName, l.email, l.phone, l.consent ? 1 : 0, l.consentText, l.capturedAt, l.createdAt);
  }

  /** A brand's leads, oldest first. */
  listForBrand(brandId: string): LeadRecord[] {
    return (this.db.prepare('SELECT * FROM leads WHERE brand_id = ? ORDER BY created_at, seq').all(brandId) as LeadRow[]).map(toLead);
  }

  /**
   * The brand a public page shows, whatever its account (the page has no caller); the registration
   * fields kept in `fields` (JSON, the spec's names as keys) are read by name.
   */
  hostedBrand(id: string): HostedBrandRecord | undefined {
    const r = this.brandStmt.get(id) as BrandRow | undefined;
    if (!r) return undefined;
    const fields = JSON.parse(r.fields) as Record<string, unknown>;
    return {
      id: r.id,
      accountId: r.account_id,
      status: r.status,
      legalName: r.legal_name,
      displayName: str(fields.displayName),
      website: str(fields.website),
      email: str(fields.email),
      phone: str(fields.phone),
      pageConfig: r.page_config ? (JSON.parse(r.page_config) as PageConfig) : null,
      compliancePages: r.compliance_pages ? (JSON.parse(r.compliance_pages) as CompliancePages) : null,
    };
  }
}
