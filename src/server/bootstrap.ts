import { readBootstrap, writeBootstrap, type Bootstrap } from '../config/bootstrap.js';
import type { ServiceDeps } from './deps.js';
import { createAgencyAccount } from './domain/accounts.js';
import { createKey } from './domain/keys.js';

export interface BootstrapResult {
  /** Undefined for a replica that joined a database another replica bootstrapped (`joined`). */
  bootstrap: Bootstrap | undefined;
  /** True when keys were minted now (first start): they are printed once. */
  created: boolean;
  /**
   * Set when this replica found the database bootstrapped by another and made no keys:
   * what to tell the person who started it (where the keys come from).
   */
  joined?: string;
}

/** What a replica that made no keys tells the person starting it. */
export const joinedNotice = (dataDir: string): string =>
  'this database was bootstrapped by another replica: no keys were made here. Use that replica\'s keys: ' +
  `copy bootstrap.json from its data directory to ${dataDir}/bootstrap.json (the local profiles read it), ` +
  'or create a key with `svc keys create` using a key you have.';

export interface BootstrapOptions {
  /**
   * The database is shared by replicas (PostgreSQL): an agency found there is another
   * replica's, and no keys are minted for this one. Not shared (SQLite in the data directory): an
   * agency without its bootstrap.json means the file was lost, and fresh keys are the only way back.
   */
  shared?: boolean;
}

/**
 * contract §1: the first start on an empty data dir creates one agency account and writes
 * bootstrap.json (mode 0600); later starts reuse it and only refresh the base URL. Keys are stored
 * hashed, so if bootstrap.json was deleted the only way back is fresh keys for the same account.
 */
export async function ensureBootstrap(deps: ServiceDeps, dataDir: string, baseUrl: string): Promise<BootstrapResult & { bootstrap: Bootstrap }>;
export async function ensureBootstrap(deps: ServiceDeps, dataDir: string, baseUrl: string, opts: BootstrapOptions): Promise<BootstrapResult>;
export async function ensureBootstrap(deps: ServiceDeps, dataDir: string, baseUrl: string, opts: BootstrapOptions = {}): Promise<BootstrapResult> {
  const existing = readBootstrap(dataDir);
  const account = await deps.uow.read(async (tx) => await tx.accounts.first());
  if (existing && account && existing.accountId === account.id) {
    const updated = { ...existing, baseUrl };
    if (existing.baseUrl !== baseUrl) writeBootstrap(dataDir, updated);
    return { bootstrap: updated, created: false };
  }
  if (opts.shared && account) return { bootstrap: undefined, created: false, joined: joinedNotice(dataDir) };
  const bootstrap = await deps.uow.write(async (tx) => {
    // Read again inside the write: replicas started together on one empty PostgreSQL database both
    // get here, and the one whose serializable write loses runs this again and finds the agency the
    // other made (one bootstrap, not two agencies), and makes no keys of its own.
    const found = await tx.accounts.first();
    if (found && opts.shared) return undefined;
    const agency = found ?? (await createAgencyAccount(tx, 'Local agency'));
    // The service acts as the agency it made: its first keys.
    const actor = { account: agency, mode: 'live' } as const;
    const live = await createKey(tx, actor, 'bootstrap live key', 'live');
    const test = await createKey(tx, actor, 'bootstrap test key', 'test');
    return { accountId: agency.id, baseUrl, liveKey: live.key, testKey: test.key };
  });
  if (!bootstrap) return { bootstrap: undefined, created: false, joined: joinedNotice(dataDir) };
  writeBootstrap(dataDir, bootstrap);
  return { bootstrap, created: true };
}
