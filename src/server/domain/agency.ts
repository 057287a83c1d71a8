import type { AgencySummary } from '../../api/schemas/subaccounts.js';
import type { Db } from '../storage/database.js';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../storage/accounts-repo.js';

/** Start of the current calendar month (UTC) on the service clock. */
export function monthStart(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

// contract §3: {subaccounts: [{id, name, status, numbers, messagesThisMonth, spendThisMonthCents}]}.
export function agencySummary(deps: { db: Db; clock: Clock; accounts: AccountsRepo }, agencyId: string): AgencySummary {
  const since = monthStart(deps.clock.nowMs());
  const numbers = deps.db.prepare("SELECT COUNT(*) AS n FROM numbers WHERE account_id = ? AND status != 'released'");
  const messages = deps.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ? AND created_at >= ?');
  const spend = deps.db.prepare('SELECT COALESCE(SUM(amount_cents), 0) AS n FROM charges WHERE account_id = ? AND created_at >= ?');
  return {
    subaccounts: deps.accounts.allChildren(agencyId).map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      numbers: (numbers.get(a.id) as { n: number }).n,
      messagesThisMonth: (messages.get(a.id, since) as { n: number }).n,
      spendThisMonthCents: (spend.get(a.id, since) as { n: number }).n,
    })),
  };
}
