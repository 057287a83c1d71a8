// The wallets family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { Plan, SubscriptionStatus } from '../../../api/values/billing.js';
import type { WalletRecord } from '../wallets-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// contract §11: one wallet per account (migration 12) with its settings: auto-recharge, the monthly
// spend limit, the saved card, the plan and its subscription. The balance is only ever changed
// together with a ledger row (domain/billing/), so it always equals the sum of the account's ledger.

export interface WalletRow {
  account_id: string;
  balance_cents: number;
  auto_recharge_enabled: StoredFlag;
  threshold_cents: number;
  recharge_amount_cents: number;
  low_balance_armed: StoredFlag;
  spend_limit_cents: number;
  card_token: string | null;
  card_last4: string | null;
  plan: Plan;
  subscription_status: SubscriptionStatus;
  current_period_end: number | null;
  spend_month: number | null;
  spend_month_cents: number;
  updated_at: number;
}

export const toRecord = (r: WalletRow): WalletRecord => ({
  accountId: r.account_id,
  balanceCents: r.balance_cents,
  autoRechargeEnabled: flag(r.auto_recharge_enabled),
  thresholdCents: r.threshold_cents,
  rechargeAmountCents: r.recharge_amount_cents,
  lowBalanceArmed: flag(r.low_balance_armed),
  spendLimitCents: r.spend_limit_cents,
  cardToken: r.card_token,
  cardLast4: r.card_last4,
  plan: r.plan,
  subscriptionStatus: r.subscription_status,
  currentPeriodEnd: r.current_period_end,
  spendMonth: r.spend_month,
  spendMonthCents: r.spend_month_cents,
  updatedAt: r.updated_at,
});

/** WalletRecord fields → columns (fixed in code, never user input). */
export const COLUMNS: Record<keyof Omit<WalletRecord, 'accountId'>, string> = {
  balanceCents: 'balance_cents',
  autoRechargeEnabled: 'auto_recharge_enabled',
  thresholdCents: 'threshold_cents',
  rechargeAmountCents: 'recharge_amount_cents',
  lowBalanceArmed: 'low_balance_armed',
  spendLimitCents: 'spend_limit_cents',
  cardToken: 'card_token',
  cardLast4: 'card_last4',
  plan: 'plan',
  subscriptionStatus: 'subscription_status',
  currentPeriodEnd: 'current_period_end',
  spendMonth: 'spend_month',
  spendMonthCents: 'spend_month_cents',
  updatedAt: 'updated_at',
};
