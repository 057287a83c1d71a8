// The ledger family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { LedgerKind, UsageCategory } from '../../../api/values/billing.js';
import type { LedgerEntry } from '../ledger-repo.js';

// contract §11: the append-only ledger (migration 12). Rows are only ever inserted: every
// charge, credit, hold, release and refund with its cause. amount_cents is signed as it moves the
// balance, so the sum of an account's rows is its wallet balance.

export interface LedgerRow {
  seq: number;
  id: string;
  account_id: string;
  kind: LedgerKind;
  category: UsageCategory | null;
  quantity: number;
  amount_cents: number;
  balance_after_cents: number | null;
  cause: string;
  ref: string | null;
  hold_id: string | null;
  created_at: number;
}

export const toEntry = (r: LedgerRow): LedgerEntry => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  category: r.category,
  quantity: r.quantity,
  amountCents: r.amount_cents,
  balanceAfterCents: r.balance_after_cents,
  cause: r.cause,
  ref: r.ref,
  holdId: r.hold_id,
  createdAt: r.created_at,
});
