// The leads family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { LeadRecord } from '../leads-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// spec: Event catalog `lead.captured`; contract §7 (hosted opt-in page). Table `leads` (migration 8).

export interface LeadRow {
  id: string;
  account_id: string;
  brand_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string;
  consent: StoredFlag;
  consent_text: string;
  captured_at: number;
  created_at: number;
}

export const toLead = (r: LeadRow): LeadRecord => ({
  id: r.id,
  accountId: r.account_id,
  brandId: r.brand_id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  consent: flag(r.consent),
  consentText: r.consent_text,
  capturedAt: r.captured_at,
  createdAt: r.created_at,
});
