import type { AgencySummary } from '../../api/schemas/subaccounts.js';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../storage/accounts-repo.js';
import type { UsageStatsRepo } from '../storage/usage-stats-repo.js';
import type { LedgerRepo } from '../storage/ledger-repo.js';
import type { Actor } from './actor.js';
import { assertAgency } from './accounts.js';

export interface AgencyDeps {
  clock: Clock;
  accounts: AccountsRepo;
  usageStats: UsageStatsRepo;
  ledger: LedgerRepo;
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
      // contract §3, §11: each sub-account pays from its own wallet; its spend is its ledger's charges
      // net of refunds this UTC calendar month (the same figure as its billing's monthToDateCents).
      spendThisMonthCents: deps.ledger.chargedSince(a.id, since),
    })),
  };
}
