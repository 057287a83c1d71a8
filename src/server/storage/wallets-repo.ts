import type { Plan, SubscriptionStatus } from '../../api/values/billing.js';

// contract §11: one wallet per account (migration 12) with its settings: auto-recharge, the monthly
// spend limit, the saved card, the plan and its subscription. The balance is only ever changed
// together with a ledger row (domain/billing/), so it always equals the sum of the account's ledger.

export interface WalletRecord {
  accountId: string;
  balanceCents: number;
  autoRechargeEnabled: boolean;
  thresholdCents: number;
  rechargeAmountCents: number;
  /** spec: Event catalog — `billing.wallet.low_balance` fires once per crossing: re-armed above the threshold. */
  lowBalanceArmed: boolean;
  spendLimitCents: number;
  /** The simulated provider's card token (not a card number); null when no card is saved. */
  cardToken: string | null;
  cardLast4: string | null;
  plan: Plan;
  subscriptionStatus: SubscriptionStatus;
  currentPeriodEnd: number | null;
  /** The month (its UTC start, service clock) `spendMonthCents` counts; null before the first count. */
  spendMonth: number | null;
  /** Usage charged (net of refunds) in `spendMonth`: the month to date against the spend limit. */
  spendMonthCents: number;
  updatedAt: number;
}

export type WalletPatch = Partial<Omit<WalletRecord, 'accountId'>> & { updatedAt: number };

export interface WalletsRepo {
  get(accountId: string): Promise<WalletRecord | undefined>;
  /** A new account's wallet (its opening balance is a ledger credit written by the caller). */
  insert(w: WalletRecord): Promise<void>;
  update(accountId: string, patch: WalletPatch): Promise<void>;
}

