import type { LedgerKind, UsageCategory } from '../../api/values/billing.js';

// contract §11: the append-only ledger (migration 12). Rows are only ever inserted: every
// charge, credit, hold, release and refund with its cause. amount_cents is signed as it moves the
// balance, so the sum of an account's rows is its wallet balance.

export interface LedgerEntry {
  id: string;
  accountId: string;
  kind: LedgerKind;
  category: UsageCategory | null;
  quantity: number;
  /** Signed: negative takes from the balance (charge, hold), positive adds (credit, release, refund). */
  amountCents: number;
  balanceAfterCents: number | null;
  /** Why, in words (`usage: sms`, `top-up`, `auto-recharge`, `hold for msg_…`). */
  cause: string;
  ref: string | null;
  holdId: string | null;
  createdAt: number;
}

export interface LedgerRepo {
  append(e: LedgerEntry): Promise<void>;
  /** The balance the ledger says (the wallet must always equal it). */
  sum(accountId: string): Promise<number>;
  /** Charges net of refunds per category in [from, to) (contract §11 `GET /v1/usage`). */
  usage(accountId: string, fromMs: number, toMs: number): Promise<Array<{ category: UsageCategory; quantity: number; amountCents: number }>>;
  /** Spend (usage charges net of refunds; not sandbox adjustments) since a time: the month to date against the spend limit. */
  chargedSince(accountId: string, sinceMs: number): Promise<number>;
  /** True when `ref` already carries a charge of `category` at or after `since` (a monthly fee paid once). */
  hasCharge(ref: string, category: UsageCategory, sinceMs: number): Promise<boolean>;
  /** Every row of an account, oldest first (tests recompute the balance from it). */
  entries(accountId: string): Promise<LedgerEntry[]>;
}

