import type { Dialect, Statement, Statements } from './statements.js';
import type { WalletRecord, WalletPatch, WalletsRepo } from '../wallets-repo.js';
import { COLUMNS, toRecord, type WalletRow } from '../rows/wallets.js';

export class SqlWalletsRepo implements WalletsRepo {
  private readonly getStmt;
  private readonly insertStmt;
  /** A handful of shapes exist (a charge, a recharge setting…): each prepared once, not its text built per charge. */
  private readonly updateStmts = new Map<string, Statement>();
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
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
      w.accountId, w.balanceCents, this.d.flag(w.autoRechargeEnabled), w.thresholdCents, w.rechargeAmountCents, this.d.flag(w.lowBalanceArmed),
      w.spendLimitCents, w.cardToken, w.cardLast4, w.plan, w.subscriptionStatus, w.currentPeriodEnd, w.spendMonth, w.spendMonthCents, w.updatedAt,
    );
  }

  async update(accountId: string, patch: WalletPatch): Promise<void> {
    const keys = (Object.keys(patch) as (keyof WalletPatch)[]).sort();
    const shape = keys.join(',');
    let stmt = this.updateStmts.get(shape);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE wallets SET ${keys.map((k) => `${COLUMNS[k]} = ?`).join(', ')} WHERE account_id = ?`);
      this.updateStmts.set(shape, stmt);
    }
    const value = (v: unknown) => (typeof v === 'boolean' ? this.d.flag(v) : (v ?? null));
    await stmt.run(...keys.map((k) => value(patch[k])), accountId);
  }
}
