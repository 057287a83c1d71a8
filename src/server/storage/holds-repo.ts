import type { HoldStatus, UsageCategory } from '../../api/values/billing.js';

// contract §11: money reserved for an action charged later (a message on `sent`).
// An open hold is already out of the wallet's balance (its ledger row is kind `hold`).

export interface HoldRecord {
  id: string;
  accountId: string;
  category: UsageCategory;
  amountCents: number;
  ref: string | null;
  status: HoldStatus;
  createdAt: number;
  closedAt: number | null;
}

export interface HoldsRepo {
  insert(h: HoldRecord): Promise<void>;
  /** The open hold for what `ref` names (a message id), if any. */
  openFor(ref: string): Promise<HoldRecord | undefined>;
  /** Money reserved and not yet charged: it counts against the spend limit like a charge. */
  openTotal(accountId: string): Promise<number>;
  /** Closes an open hold; false when it was not open (settled or released already). */
  close(id: string, status: Exclude<HoldStatus, 'open'>, at: number): Promise<boolean>;
}

