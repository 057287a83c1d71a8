// What `svc server snapshot load` and `svc server reset` do to a STOPPED service's data
// directory (the CLI stops and restarts the service around them). The bootstrap keys of this data
// directory (bootstrap.json) stay valid through both, so the CLI's `local` profile keeps working.
import path from 'node:path';
import fs from 'node:fs';
import { leaveNoJournal, openDatabase, type Db } from './storage/sqlite/database.js';
import { SqliteStore } from './storage/sqlite/store.js';
import { composeService } from './compose.js';
import { restoreClock } from './clock.js';
import { readBootstrap, writeBootstrap } from '../config/bootstrap.js';
import { hashKey, keyRecord } from './domain/keys.js';
import { createAgencyAccount } from './domain/accounts.js';
import { openWallet } from './domain/billing/wallet.js';
import type { ServiceDeps } from './deps.js';
import type { AccountRecord } from './storage/accounts-repo.js';
import type { KeyRecord } from './storage/keys-repo.js';
import {
  damageOf,
  discardStaged,
  latestSchemaVersion,
  removeDatabaseFiles,
  schemaVersionOf,
  stageMediaFolder,
  stagingPlaces,
  swapStagedIn,
  type SnapshotPlace,
  type StagedSnapshot,
} from './storage/sqlite/snapshots.js';
import { schemaDifferences } from './storage/sqlite/snapshot-schema.js';
import { settleSnapshotTrust, trustedBefore, type SettledTrust } from './snapshot-trust.js';
import { DB_FILE, MEDIA_DIR } from '../api/values/local-service.js';

const quietLog = { error: () => undefined };

/** Storage and domain over a database, without HTTP, scheduler or workers started. */
function depsOver(db: Db, dataDir: string): Promise<ServiceDeps> {
  return composeService(new SqliteStore(db), restoreClock('system', undefined), quietLog, { mediaDir: path.join(dataDir, MEDIA_DIR) });
}

/** A snapshot that cannot be loaded here; `kind` picks the exit code (cli.md: 5 for another schema version, 2 for a bad file). */
export class SnapshotVersionError extends Error {
  override name = 'SnapshotVersionError';
  constructor(message: string, readonly kind: 'version' | 'unusable' = 'version') {
    super(message);
  }
}

/**
 * Refuses a snapshot database file that is damaged, is not an svc database, has another schema
 * version (naming both versions), or whose schema is not exactly ours (a trigger, a view,
 * a dropped table, a removed CHECK, an extra column or index), each difference named. Reads only.
 */
export function checkSnapshotFile(file: string, name: string): void {
  const damage = damageOf(file);
  if (damage !== null) {
    throw new SnapshotVersionError(`snapshot "${name}" is damaged or not a database (${damage}); nothing was changed`, 'unusable');
  }
  const found = schemaVersionOf(file);
  const expected = latestSchemaVersion();
  if (found === null) throw new SnapshotVersionError(`snapshot "${name}" is not an svc snapshot (it has no schema version); nothing was changed`, 'unusable');
  if (found !== expected) {
    throw new SnapshotVersionError(
      `snapshot "${name}" has schema version ${found}, this svc's database is schema version ${expected}; nothing was changed (load it with the svc version that saved it)`,
    );
  }
  const differences = schemaDifferences(file);
  if (differences.length > 0) {
    const shown = differences.slice(0, 10);
    const more = differences.length > shown.length ? `\n  … and ${differences.length - shown.length} more` : '';
    throw new SnapshotVersionError(
      `snapshot "${name}" is not an svc snapshot: its schema is not svc's schema version ${expected}; nothing was changed\n  ${shown.join('\n  ')}${more}`,
      'unusable',
    );
  }
}

/**
 * Copies a snapshot into private files of the data directory and checks the copies there (the file
 * checked is the file loaded: the original may change after its check). The media folder must hold
 * regular files only; the database must pass checkSnapshotFile. Nothing of the data
 * directory's changes: on a refusal the copies are removed (and the directory, if this made it).
 * The caller swaps the result in with loadSnapshotData, or discards it with discardStaged.
 */
export function stageSnapshot(dataDir: string, place: SnapshotPlace, name: string): StagedSnapshot {
  if (!fs.statSync(place.file).isFile()) throw new SnapshotVersionError(`snapshot "${name}" is not a file; nothing was changed`, 'unusable');
  const madeDir = !fs.existsSync(dataDir);
  // A first load into a new data directory (a CI machine) creates it.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const places = stagingPlaces(dataDir);
  const staged: StagedSnapshot = { file: places.file, media: fs.existsSync(place.media) ? places.media : null };
  try {
    discardStaged(staged);
    if (staged.media) {
      const problem = stageMediaFolder(place.media, staged.media);
      if (problem) throw new SnapshotVersionError(`snapshot "${name}" ${problem}; nothing was changed`, 'unusable');
    }
    fs.copyFileSync(place.file, staged.file);
    // The database holds webhook signing secrets: owner-only, like svc.db.
    fs.chmodSync(staged.file, 0o600);
    checkSnapshotFile(staged.file, name);
    return staged;
  } catch (error) {
    discardStaged(staged);
    if (madeDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Swaps a staged snapshot in (the service is stopped), then settles what it may be trusted with
 * (snapshot-trust.ts: its keys and webhook endpoints, unless `trust`), then makes this data
 * directory's bootstrap keys valid in it.
 */
export async function loadSnapshotData(dataDir: string, staged: StagedSnapshot, options: { trust: boolean }): Promise<SettledTrust> {
  const dbFile = path.join(dataDir, DB_FILE);
  const before = options.trust ? undefined : trustedBefore(dbFile);
  swapStagedIn(dataDir, staged);
  let settled: SettledTrust = { revokedKeys: 0, disabledEndpoints: 0 };
  if (before) {
    const bootstrap = readBootstrap(dataDir);
    const bootstrapHashes = new Set(bootstrap ? [hashKey(bootstrap.liveKey), hashKey(bootstrap.testKey)] : []);
    const deps = await depsOver(openDatabase(dbFile), dataDir);
    try {
      settled = await settleSnapshotTrust(deps, before, bootstrapHashes);
    } finally {
      await deps.store.close();
    }
  }
  await ensureBootstrapKeys(dataDir);
  return settled;
}

/**
 * The snapshot may come from another machine, whose agency account and keys are not ours: insert the
 * hashes of bootstrap.json's keys (for its account if the snapshot has it, else for the snapshot's
 * root account, which bootstrap.json then names), so the profile's keys authenticate unchanged.
 */
export async function ensureBootstrapKeys(dataDir: string): Promise<void> {
  const bootstrap = readBootstrap(dataDir);
  if (!bootstrap) return; // never started: the first start mints keys as usual
  const deps = await depsOver(openDatabase(path.join(dataDir, DB_FILE)), dataDir);
  try {
    const accountId = await deps.uow.write(async (tx) => {
      const account = (await tx.accounts.get(bootstrap.accountId)) ?? (await tx.accounts.first()) ?? (await createAgencyAccount(tx, 'Local agency'));
      const now = tx.clock.nowMs();
      for (const [mode, key] of [['live', bootstrap.liveKey], ['test', bootstrap.testKey]] as const) {
        const hash = hashKey(key);
        const existing = await tx.keys.findByHash(hash);
        if (existing && existing.accountId === account.id && existing.revokedAt === null) continue;
        await tx.keys.deleteByHash(hash);
        await tx.keys.insert(bootstrapKeyRecord(account.id, mode, key, now));
      }
      return account.id;
    });
    if (accountId !== bootstrap.accountId) writeBootstrap(dataDir, { ...bootstrap, accountId });
  } finally {
    await deps.store.close();
  }
}

function bootstrapKeyRecord(accountId: string, mode: 'live' | 'test', key: string, now: number): KeyRecord {
  return keyRecord(accountId, `bootstrap ${mode} key`, mode, key, now);
}

/**
 * A fresh database: every table empty but accounts and keys, of which the bootstrap account and its
 * bootstrap keys are always kept (the profile keeps working), and with `keepKeys` every account and
 * every key (sub-accounts' keys stay valid; wallets start afresh). Media files go too.
 */
export async function resetData(dataDir: string, keepKeys: boolean): Promise<void> {
  const dbFile = path.join(dataDir, DB_FILE);
  const bootstrap = readBootstrap(dataDir);
  let accounts: AccountRecord[] = [];
  let keys: KeyRecord[] = [];
  if (fs.existsSync(dbFile)) {
    const old = new SqliteStore(openDatabase(dbFile));
    try {
      await old.read(async (r) => {
        if (keepKeys) {
          accounts = await r.accounts.all();
          keys = await r.keys.all();
        } else if (bootstrap) {
          const account = await r.accounts.get(bootstrap.accountId);
          if (account) accounts = [account];
          const found = await Promise.all([bootstrap.liveKey, bootstrap.testKey].map(async (k) => await r.keys.findByHash(hashKey(k))));
          keys = found.filter((k): k is KeyRecord => k !== undefined);
        }
      });
    } finally {
      await old.close();
    }
  }
  const temp = path.join(dataDir, `${DB_FILE}.reset-${process.pid}.tmp`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${temp}${suffix}`, { force: true });
  const fresh = openDatabase(temp);
  const deps = await depsOver(fresh, dataDir);
  try {
    await deps.uow.write(async (tx) => {
      for (const account of accounts) {
        await tx.accounts.insert(account);
        await openWallet(tx, account.id);
      }
      for (const key of keyTimesAsOf(keys, tx.clock.nowMs())) await tx.keys.insert(key);
    });
    // One file to rename into place: no WAL beside it.
    leaveNoJournal(fresh);
  } finally {
    await deps.store.close();
  }
  removeDatabaseFiles(dataDir);
  fs.renameSync(temp, dbFile);
  fs.rmSync(path.join(dataDir, MEDIA_DIR), { recursive: true, force: true });
  await ensureBootstrapKeys(dataDir);
}

/**
 * A reset starts the service clock afresh (the system clock), while a kept key may have been used or
 * made after `svc clock advance`: its times would read in the future (`lastUsedAt in 58m`).
 * A time later than the reset clock becomes the clock: the key was used (made, revoked) by then.
 */
export function keyTimesAsOf(keys: readonly KeyRecord[], nowMs: number): KeyRecord[] {
  const notAfter = (ms: number | null): number | null => (ms !== null && ms > nowMs ? nowMs : ms);
  return keys.map((k) => ({ ...k, createdAt: Math.min(k.createdAt, nowMs), lastUsedAt: notAfter(k.lastUsedAt), revokedAt: notAfter(k.revokedAt) }));
}
