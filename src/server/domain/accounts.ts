import type { AccountsRepo, AccountRecord } from '../storage/accounts-repo.js';
import type { Clock } from '../clock.js';
import type { Actor } from './actor.js';
import type { Page } from '../../api/schemas/page.js';
import { newUuid } from '../ids.js';
import { forbidden, notFound } from '../errors.js';
import type { UnitOfWork } from './deps.js';
import type { WalletsRepo } from '../storage/wallets-repo.js';
import type { LedgerRepo } from '../storage/ledger-repo.js';
import { openWallet } from './billing/wallet.js';
import { assertMayChange, type KeyMode } from './test-keys.js';

// Sub-account routes are agency-level (contract §3: they refuse Service-Subaccount), so the actor's
// account is always the caller's own.

export interface AccountsDeps {
  accounts: AccountsRepo;
  clock: Clock;
  uow: UnitOfWork;
  wallets: WalletsRepo;
  ledger: LedgerRepo;
}

/** An account and its wallet (contract §11: every account pays from its own), in one transaction. */
async function insertAccount(deps: AccountsDeps, a: { name: string; parentId: string | null; isAgency: boolean; mode: KeyMode }): Promise<AccountRecord> {
  return await deps.uow.write(async (tx) => {
    const now = tx.clock.nowMs();
    const record: AccountRecord = { id: newUuid(), name: a.name, parentId: a.parentId, isAgency: a.isAgency, status: 'active', mode: a.mode, createdAt: now, updatedAt: now };
    await tx.accounts.insert(record);
    await openWallet(tx, record.id);
    return record;
  });
}

/** contract §1: the agency account the first start creates (no caller yet). */
export async function createAgencyAccount(deps: AccountsDeps, name: string): Promise<AccountRecord> {
  return await insertAccount(deps, { name, parentId: null, isAgency: true, mode: 'live' });
}

// spec: Authentication 5 — agency keys manage child accounts; others get 403.
export function assertAgency(account: AccountRecord): void {
  if (!account.isAgency) throw forbidden('only an agency account can manage sub-accounts');
}

export async function createSubaccount(deps: AccountsDeps, actor: Actor, name: string): Promise<AccountRecord> {
  assertAgency(actor.account);
  return await insertAccount(deps, { name, parentId: actor.account.id, isAgency: false, mode: actor.mode });
}

export async function listSubaccounts(deps: Pick<AccountsDeps, 'accounts'>, actor: Actor, limit: number, cursor?: string): Promise<Page<AccountRecord>> {
  assertAgency(actor.account);
  return await deps.accounts.listChildren(actor.account.id, limit, cursor);
}

export async function getSubaccount(deps: Pick<AccountsDeps, 'accounts'>, actor: Actor, id: string): Promise<AccountRecord> {
  assertAgency(actor.account);
  const child = await deps.accounts.getChild(actor.account.id, id);
  if (!child) throw notFound('sub-account');
  return child;
}

/**
 * PATCH /v1/subaccounts/{id}. contract §2: a sub-account created with a live key is a live key's to
 * rename or suspend (a test key that suspended it would stop its live work).
 */
export async function updateSubaccount(deps: AccountsDeps, actor: Actor, id: string, patch: { name?: string; status?: 'active' | 'suspended' }): Promise<AccountRecord> {
  const child = await getSubaccount(deps, actor, id);
  assertMayChange(actor, child.mode, 'this sub-account');
  await deps.accounts.update(id, patch, deps.clock.nowMs());
  return (await deps.accounts.get(id))!;
}
