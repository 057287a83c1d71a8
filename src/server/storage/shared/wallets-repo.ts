import type { Dialect, Statement, Statements } from './statements.js';
import { asIs, table, yesNo, type Row } from './table.js';
import type { WalletRecord, WalletPatch, WalletsRepo } from '../wallets-repo.js';

const WALLETS = table<WalletRecord>('wallets', {
  accountId: asIs,
  balanceCents: asIs,
  autoRechargeEnabled: yesNo,
  thresholdCents: asIs,
  rechargeAmountCents: asIs,
  lowBalanceArmed: yesNo,
  spendLimitCents: asIs,
  cardToken: asIs,
  cardLast4: asIs,
  plan: asIs,
  subscriptionStatus: asIs,
  currentPeriodEnd: asIs,
  spendMonth: asIs,
  spendMonthCents: asIs,
  updatedAt: asIs,
});

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
    this.insertStmt = db.prepare(WALLETS.insertSql());
  }

  async get(accountId: string): Promise<WalletRecord | undefined> {
    const row = await this.getStmt.get(accountId) as Row | undefined;
    return row && WALLETS.read(row);
  }

  async insert(w: WalletRecord): Promise<void> {
    await this.insertStmt.run(...WALLETS.values(w, this.d));
  }

  async update(accountId: string, patch: WalletPatch): Promise<void> {
    const keys = (Object.keys(patch) as (keyof WalletPatch)[]).sort();
    const shape = keys.join(',');
    let stmt = this.updateStmts.get(shape);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE wallets SET ${WALLETS.setSql(keys)} WHERE account_id = ?`);
      this.updateStmts.set(shape, stmt);
    }
    await stmt.run(...WALLETS.values(patch, this.d, keys), accountId);
  }
}
