// The holds family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { HoldStatus, UsageCategory } from '../../../api/values/billing.js';
import type { HoldRecord } from '../holds-repo.js';

// contract §11: money reserved for an action charged later (a message on `sent`).
// An open hold is already out of the wallet's balance (its ledger row is kind `hold`).

export interface HoldRow {
  id: string;
  account_id: string;
  category: UsageCategory;
  amount_cents: number;
  ref: string | null;
  status: HoldStatus;
  created_at: number;
  closed_at: number | null;
}

export const toRecord = (r: HoldRow): HoldRecord => ({
  id: r.id,
  accountId: r.account_id,
  category: r.category,
  amountCents: r.amount_cents,
  ref: r.ref,
  status: r.status,
  createdAt: r.created_at,
  closedAt: r.closed_at,
});
