// Snapshots of the local service's data, as files (DATA/snapshots/NAME.db and NAME.media/)
// a team can commit. Everything the service knows (the clock in service_state, jobs, deliveries,
// messages) is in the one SQLite file; media bytes sit beside it and are copied alongside.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { SQLITE_SCHEMA } from './migrations.js';
import { isMediaName, readRegularFile } from '../media-store.js';
import { DB_FILE, MEDIA_DIR, SNAPSHOTS_DIR } from '../../../api/values/local-service.js';

/** The schema version this code writes: the newest migration. */
export const latestSchemaVersion = (): number => SQLITE_SCHEMA.version;

/** Where a snapshot lives: its database file and the media folder beside it (`X.db`, `X.media/`). */
export interface SnapshotPlace {
  file: string;
  media: string;
}

/** A snapshot saved by name, in DATA/snapshots. */
export const namedSnapshot = (dataDir: string, name: string): SnapshotPlace => ({
  file: path.join(dataDir, SNAPSHOTS_DIR, `${name}.db`),
  media: path.join(dataDir, SNAPSHOTS_DIR, `${name}.media`),
});

/** A snapshot at a path of the user's (committed next to their tests): `./test/seed.db`. */
export const snapshotAt = (file: string): SnapshotPlace => {
  const resolved = path.resolve(file);
  return { file: resolved, media: `${resolved.slice(0, -'.db'.length)}.media` };
};

/**
 * SQLite's own check of a database file (`PRAGMA quick_check`: every page, index and record
 * readable), read-only. Returns the first problem, or null when the file is sound. A snapshot
 * committed to a repository can be damaged on the way (a bad merge, a partial download): loading one
 * would put a database the service cannot open in place of a good one.
 */
export function damageOf(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.prepare('PRAGMA quick_check').all() as Array<{ quick_check: string }>;
    const first = rows[0]?.quick_check;
    return first === 'ok' ? null : (first ?? 'no answer to quick_check');
  } catch (error) {
    return (error as Error).message;
  } finally {
    db?.close();
  }
}

/** The highest applied migration of a database file, or null when it has none (not an svc database). */
export function schemaVersionOf(file: string): number | null {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
    return row.v;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/** The live media files not yet in `into` (a half-written `.NAME.tmp` is never one of them). */
function copyMedia(dataDir: string, into: string): void {
  const live = path.join(dataDir, MEDIA_DIR);
  if (!fs.existsSync(live)) return;
  fs.mkdirSync(into, { recursive: true, mode: 0o700 });
  for (const name of fs.readdirSync(live)) {
    if (name.startsWith('.') || fs.existsSync(path.join(into, name))) continue;
    try {
      fs.copyFileSync(path.join(live, name), path.join(into, name));
    } catch (error) {
      // Deleted since the listing: a file no row of a later state names.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * SQLite's online backup from a read-only connection: the copy is one consistent state even while
 * the service writes, so it needs no pause of the service. Written to a temp file and renamed: a reader never sees half a
 * snapshot. The copy is switched out of WAL so the committed file is the whole snapshot.
 */
export async function saveSnapshotFiles(dataDir: string, place: SnapshotPlace): Promise<{ file: string; bytes: number }> {
  const source = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(source)) throw new Error(`${source} does not exist: start the local service once to create it`);
  const { file, media } = place;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  // Media files are written whole and renamed into place, and a row names a file only once it is
  // there; copied before the database and again after it (new names only), every file a row of the
  // copy names is in the snapshot, short of one created and deleted again within the backup itself.
  const staging = `${media}.${process.pid}.tmp`;
  copyMedia(dataDir, staging);
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    // The whole file in one step, under one read lock (WAL: the service's writers are not blocked):
    // in steps of 100 pages, a service writing between steps would restart the copy again and again.
    await db.backup(temp, { progress: () => 0x7fffffff });
  } catch (error) {
    fs.rmSync(temp, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    db.close();
  }
  const copy = new Database(temp);
  copy.pragma('journal_mode = DELETE');
  copy.close();
  // The database holds webhook signing secrets: owner-only, like svc.db.
  fs.chmodSync(temp, 0o600);
  copyMedia(dataDir, staging);
  fs.rmSync(media, { recursive: true, force: true });
  if (fs.existsSync(staging)) fs.renameSync(staging, media);
  fs.renameSync(temp, file);
  return { file, bytes: fs.statSync(file).size };
}

/** A snapshot copied into private files of the data directory, checked there, then swapped in. */
export interface StagedSnapshot {
  file: string;
  /** The media folder's copy, or null when the snapshot has none. */
  media: string | null;
}

/** The staging places of this process's load, beside the files they replace (one filesystem: renames). */
export const stagingPlaces = (dataDir: string): { file: string; media: string } => ({
  file: path.join(dataDir, `${DB_FILE}.load-${process.pid}.tmp`),
  media: path.join(dataDir, `${MEDIA_DIR}.load-${process.pid}.tmp`),
});

const KIND_OF = (stat: fs.Stats): string =>
  stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a FIFO' : stat.isSocket() ? 'a socket' : stat.isBlockDevice() || stat.isCharacterDevice() ? 'a device' : 'not a regular file';

/**
 * Copies a snapshot's media folder into `into`, refusing (answering why) anything but a folder of
 * regular files with media names: a symbolic link would serve whatever it points at
 * (bootstrap.json, /etc/passwd, /proc/self/environ) as public media. Each file is opened without
 * following links and checked on the open descriptor, so a file swapped for a link after the listing
 * is refused too. Null when all is copied (or there is no folder).
 */
export function stageMediaFolder(from: string, into: string): string | null {
  let folder: fs.Stats;
  try {
    folder = fs.lstatSync(from);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const base = path.basename(from);
  if (!folder.isDirectory()) return `has a media folder ${base} that is ${KIND_OF(folder)}, not a folder`;
  fs.mkdirSync(into, { recursive: true, mode: 0o700 });
  for (const name of fs.readdirSync(from).sort()) {
    const entry = path.join(from, name);
    const stat = fs.lstatSync(entry);
    if (!stat.isFile()) return `has ${base}/${name}, which is ${KIND_OF(stat)}: a snapshot's media are regular files only`;
    if (!isMediaName(name)) return `has ${base}/${name}, which is not a media file name svc writes`;
    const bytes = readRegularFile(entry);
    if (!bytes) return `has ${base}/${name}, which is not a regular file`;
    fs.writeFileSync(path.join(into, name), bytes, { mode: 0o600 });
  }
  return null;
}

/**
 * Replaces DATA/svc.db (and its WAL) and DATA/media with a staged snapshot's. The service must be
 * stopped: the caller stops it first, and checked the staged files before that.
 */
export function swapStagedIn(dataDir: string, staged: StagedSnapshot): void {
  removeDatabaseFiles(dataDir);
  fs.renameSync(staged.file, path.join(dataDir, DB_FILE));
  fs.rmSync(path.join(dataDir, MEDIA_DIR), { recursive: true, force: true });
  if (staged.media) fs.renameSync(staged.media, path.join(dataDir, MEDIA_DIR));
}

/** Removes what a load staged and did not swap in (a refusal, an interruption); nothing when it was. */
export function discardStaged(staged: StagedSnapshot): void {
  fs.rmSync(staged.file, { force: true });
  if (staged.media) fs.rmSync(staged.media, { recursive: true, force: true });
}

/**
 * Who a database file lets in and where it sends: its active keys (hash, account) and its enabled
 * webhook endpoints' URLs. Read before a load replaces the file (snapshot-trust.ts); none when there
 * is no file or it cannot be read.
 */
export function accessIn(dbFile: string): { keys: Array<{ hash: string; accountId: string }>; webhookUrls: string[] } {
  const none = { keys: [], webhookUrls: [] };
  if (!fs.existsSync(dbFile)) return none;
  let db: Database.Database | undefined;
  try {
    // Read-write without migrating: a WAL left by a crash is read, which a read-only open may refuse.
    db = new Database(dbFile, { fileMustExist: true });
    const keys = (db.prepare('SELECT hash, account_id FROM api_keys WHERE revoked_at IS NULL').all() as Array<{ hash: string; account_id: string }>).map((k) => ({
      hash: k.hash,
      accountId: k.account_id,
    }));
    const webhookUrls = (db.prepare('SELECT url FROM webhook_endpoints WHERE enabled = 1').all() as Array<{ url: string }>).map((e) => e.url);
    return { keys, webhookUrls };
  } catch {
    return none;
  } finally {
    db?.close();
  }
}

/** svc.db with its -wal and -shm: a WAL left beside another database would be replayed into it. */
export function removeDatabaseFiles(dataDir: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dataDir, `${DB_FILE}${suffix}`), { force: true });
}

export interface SnapshotInfo {
  name: string;
  bytes: number;
  savedAt: string;
  schemaVersion: number | null;
}

export function listSnapshots(dataDir: string): SnapshotInfo[] {
  const dir = path.join(dataDir, SNAPSHOTS_DIR);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.db'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const stat = fs.statSync(file);
      return { name: f.slice(0, -3), bytes: stat.size, savedAt: stat.mtime.toISOString(), schemaVersion: schemaVersionOf(file) };
    });
}

/** Removes a snapshot; false when there was none of that name. */
export function removeSnapshot(dataDir: string, name: string): boolean {
  const { file, media } = namedSnapshot(dataDir, name);
  if (!fs.existsSync(file)) return false;
  fs.rmSync(file);
  fs.rmSync(media, { recursive: true, force: true });
  return true;
}
