import type { Sql } from './sql.js';
import type { Plan, SubscriptionStatus } from '../../../api/values/billing.js';
import type { WalletRecord, WalletPatch, WalletsRepo } from '../wallets-repo.js';

// contract §11: one wallet per account (migration 12) with its settings: auto-recharge, the monthly
// spend limit, the saved card, the plan and its subscription. The balance is only ever changed
// together with a ledger row (domain/billing/), so it always equals the sum of the account's ledger.

interface WalletRow {
  account_id: string;
  balance_cents: number;
  auto_recharge_enabled: boolean;
  threshold_cents: number;
  recharge_amount_cents: number;
  low_balance_armed: boolean;
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

const toRecord = (r: WalletRow): WalletRecord => ({
  accountId: r.account_id,
  balanceCents: r.balance_cents,
  autoRechargeEnabled: r.auto_recharge_enabled,
  thresholdCents: r.threshold_cents,
  rechargeAmountCents: r.recharge_amount_cents,
  lowBalanceArmed: r.low_balance_armed,
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
const COLUMNS: Record<keyof Omit<WalletRecord, 'accountId'>, string> = {
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

export class PgWalletsRepo implements WalletsRepo {
  private readonly getStmt;
  private readonly insertStmt;
  constructor(private readonly db: Sql) {
    this.getStmt = db.prepare('SELECT * FROM wallets WHERE account_id = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO wallets (account_id, balance_cents, auto_recharge_enabled, threshold_cents, recharge_amount_cents, low_balance_armed,
         spend_limit_cents, card_token, card_last4, plan, subscription_status, current_period_end, spend_month, spend_month_cents, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  async get(accountId: string): Promise<WalletRecord | undefined> {
    const row = await this.getStmt.get(accountId) as WalletRow | undefined;
    return row && toRecord(row);
  }

  /** A new account's wallet (its opening balance is a ledger credit written by the caller). */
  async insert(w: WalletRecord): Promise<void> {
    await this.insertStmt.run(
      w.accountId, w.balanceCents, w.autoRechargeEnabled, w.thresholdCents, w.rechargeAmountCents, w.lowBalanceArmed,
      w.spendLimitCents, w.cardToken, w.cardLast4, w.plan, w.subscriptionStatus, w.currentPeriodEnd, w.spendMonth, w.spendMonthCents, w.updatedAt,
    );
  }

  async update(accountId: string, patch: WalletPatch): Promise<void> {
    const keys = (Object.keys(patch) as (keyof WalletPatch)[]).sort();
    await this.db.prepare(`UPDATE wallets SET ${keys.map((k) => `${COLUMNS[k]} = ?`).join(', ')} WHERE account_id = ?`).run(...keys.map((k) => patch[k] ?? null), accountId);
  }
}
