import type { Db } from './database.js';
import type { WalletRecord, WalletPatch, WalletsRepo } from '../wallets-repo.js';
import { COLUMNS, toRecord, type WalletRow } from '../rows/wallets.js';

/** A flag bound for SQLite, which binds no booleans (rows/stored-flag.ts). */
const toColumn = (v: unknown): unknown => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

export class SqliteWalletsRepo implements WalletsRepo {
  private readonly getStmt;
  private readonly insertStmt;
  private readonly updateStmts = new Map<string, ReturnType<Db['prepare']>>();
  constructor(private readonly db: Db) {
    this.getStmt = db.prepare('SELECT * FROM wallets WHERE account_id = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO wallets (account_id, balance_cents, auto_recharge_enabled, threshold_cents, recharge_amount_cents, low_balance_armed,
         spend_limit_cents, card_token, card_last4, plan, subscription_status, current_period_end, spend_month, spend_month_cents, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  async get(accountId: string): Promise<WalletRecord | undefined> {
    const row = this.getStmt.get(accountId) as WalletRow | undefined;
    return row && toRecord(row);
  }

  /** A new account's wallet (its opening balance is a ledger credit written by the caller). */
  async insert(w: WalletRecord): Promise<void> {
    this.insertStmt.run(
      w.accountId, w.balanceCents, toColumn(w.autoRechargeEnabled), w.thresholdCents, w.rechargeAmountCents, toColumn(w.lowBalanceArmed),
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
    stmt.run([...keys.map((k) => toColumn(patch[k] ?? null)), accountId]);
  }
}
