import { readBootstrap, writeBootstrap, type Bootstrap } from '../config/bootstrap.js';
import type { ServiceDeps } from './deps.js';
import { createAgencyAccount } from './domain/accounts.js';
import { createKey } from './domain/keys.js';

export interface BootstrapResult {
  bootstrap: Bootstrap;
  /** True when keys were minted now (first start): they are printed once. */
  created: boolean;
}

/**
 * contract §1: the first start on an empty data dir creates one agency account and writes
 * bootstrap.json (mode 0600); later starts reuse it and only refresh the base URL. Keys are stored
 * hashed, so if bootstrap.json was deleted the only way back is fresh keys for the same account.
 */
export async function ensureBootstrap(deps: ServiceDeps, dataDir: string, baseUrl: string): Promise<BootstrapResult> {
  const existing = readBootstrap(dataDir);
  const account = await deps.uow.read(async (tx) => await tx.accounts.first());
  if (existing && account && existing.accountId === account.id) {
    const updated = { ...existing, baseUrl };
    if (existing.baseUrl !== baseUrl) writeBootstrap(dataDir, updated);
    return { bootstrap: updated, created: false };
  }
  const bootstrap = await deps.uow.write(async (tx) => {
    // Read again inside the write: replicas started together on one empty PostgreSQL database both
    // get here, and the one whose serializable write loses runs this again and finds the agency the
    // other made (issue 26: one bootstrap, not two agencies).
    const agency = (await tx.accounts.first()) ?? (await createAgencyAccount(tx, 'Local agency'));
    // The service acts as the agency it made: its first keys.
    const actor = { account: agency, mode: 'live' } as const;
    const live = await createKey(tx, actor, 'bootstrap live key', 'live');
    const test = await createKey(tx, actor, 'bootstrap test key', 'test');
    return { accountId: agency.id, baseUrl, liveKey: live.key, testKey: test.key };
  });
  writeBootstrap(dataDir, bootstrap);
  return { bootstrap, created: true };
}
