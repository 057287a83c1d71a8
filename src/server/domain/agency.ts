import type { AgencySummary } from '../../api/schemas/subaccounts.js';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../storage/accounts-repo.js';
import type { UsageStatsRepo } from '../storage/usage-stats-repo.js';
import type { Actor } from './actor.js';
import { assertAgency } from './accounts.js';

export interface AgencyDeps {
  clock: Clock;
  accounts: AccountsRepo;
  usageStats: UsageStatsRepo;
}

/** Start of the current calendar month (UTC) on the service clock. */
export function monthStart(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

// contract §3: {subaccounts: [{id, name, status, numbers, messagesThisMonth, spendThisMonthCents}]}.
export function agencySummary(deps: AgencyDeps, actor: Actor): AgencySummary {
  assertAgency(actor.account);
  const agencyId = actor.account.id;
  const since = monthStart(deps.clock.nowMs());
  const stats = deps.usageStats;
  return {
    subaccounts: deps.accounts.allChildren(agencyId).map((a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      numbers: stats.ownedNumbers(a.id),
      messagesThisMonth: stats.messagesSince(a.id, since),
      spendThisMonthCents: stats.spendSince(a.id, since),
    })),
  };
}
