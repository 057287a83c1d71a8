// issue 15: snapshots of the local service's data, as files (DATA/snapshots/NAME.db and NAME.media/)
// a team can commit. Everything the service knows (the clock in service_state, jobs, deliveries,
// messages) is in the one SQLite file; media bytes sit beside it and are copied alongside.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations.js';
import { DB_FILE, MEDIA_DIR, SNAPSHOTS_DIR } from '../../api/values/local-service.js';

/** The schema version this code writes: the newest migration. */
export const latestSchemaVersion = (): number => Math.max(...MIGRATIONS.map((m) => m.version));

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

/** The highest applied migration of a database file, or null when it has none (not an svc database). */
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

/**
 * Replaces DATA/svc.db (and its WAL) and DATA/media with the snapshot's. The service must be stopped:
 * the caller stops it first. The version check is the caller's, before anything changes.
 */
export function copySnapshotIn(dataDir: string, place: SnapshotPlace): void {
  // A first load into a new data directory (a CI machine) creates it.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const target = path.join(dataDir, DB_FILE);
  const temp = `${target}.${process.pid}.tmp`;
  fs.copyFileSync(place.file, temp);
  fs.chmodSync(temp, 0o600);
  removeDatabaseFiles(dataDir);
  fs.renameSync(temp, target);
  fs.rmSync(path.join(dataDir, MEDIA_DIR), { recursive: true, force: true });
  if (fs.existsSync(place.media)) fs.cpSync(place.media, path.join(dataDir, MEDIA_DIR), { recursive: true });
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
