import type { AccountsRepo, AccountRecord } from '../storage/accounts-repo.js';
import type { Clock } from '../clock.js';
import { newUuid } from '../ids.js';
import { forbidden, notFound } from '../errors.js';

export function createAccount(repo: AccountsRepo, clock: Clock, a: { name: string; parentId: string | null; isAgency: boolean }): AccountRecord {
  const now = clock.nowMs();
  const record: AccountRecord = { id: newUuid(), name: a.name, parentId: a.parentId, isAgency: a.isAgency, status: 'active', createdAt: now, updatedAt: now };
  repo.insert(record);
  return record;
}

// spec: Authentication 5 — agency keys manage child accounts; others get 403.
export function assertAgency(account: AccountRecord): void {
  if (!account.isAgency) throw forbidden('only an agency account can manage sub-accounts');
}

export function getSubaccount(repo: AccountsRepo, agency: AccountRecord, id: string): AccountRecord {
  assertAgency(agency);
  const child = repo.getChild(agency.id, id);
  if (!child) throw notFound('sub-account');
  return child;
}

export function updateSubaccount(
  repo: AccountsRepo,
  clock: Clock,
  agency: AccountRecord,
  id: string,
  patch: { name?: string; status?: 'active' | 'suspended' },
): AccountRecord {
  getSubaccount(repo, agency, id);
  repo.update(id, patch, clock.nowMs());
  return repo.get(id)!;
}
