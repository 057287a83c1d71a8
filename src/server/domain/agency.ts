import type { AgencySummary } from '../../api/schemas/subaccounts.js';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../storage/accounts-repo.js';
import type { UsageStatsRepo } from '../storage/usage-stats-repo.js';
import type { LedgerRepo } from '../storage/ledger-repo.js';
import type { Actor } from './actor.js';
import type { WalletsRepo } from '../storage/wallets-repo.js';
import { assertAgency } from './accounts.js';
import { monthStart } from './month.js';
import { monthToDate, walletOf } from './billing/wallet.js';

export interface AgencyDeps {
  clock: Clock;
  accounts: AccountsRepo;
  usageStats: UsageStatsRepo;
  ledger: LedgerRepo;
  wallets: WalletsRepo;
}


// contract §3: {subaccounts: [{id, name, status, numbers, messagesThisMonth, spendThisMonthCents}]}.
export async function agencySummary(deps: AgencyDeps, actor: Actor): Promise<AgencySummary> {
  assertAgency(actor.account);
  const agencyId = actor.account.id;
  const now = deps.clock.nowMs();
  const since = monthStart(now);
  const stats = deps.usageStats;
  return {
    subaccounts: await Promise.all((await deps.accounts.allChildren(agencyId)).map(async (a) => ({
      id: a.id,
      name: a.name,
      status: a.status,
      numbers: await stats.ownedNumbers(a.id),
      messagesThisMonth: await stats.messagesSince(a.id, since),
      // contract §3, §11: each sub-account pays from its own wallet; its spend is its ledger's charges
      // net of refunds this UTC calendar month (the same figure as its billing's monthToDateCents).
      spendThisMonthCents: await monthToDate(deps, await walletOf(deps, a.id), now),
    }))),
  };
}
