// One service per data directory, and a way for `svc server snapshot load` and `svc server
// reset` to know that a service is using it even when it left no server.json (a service started from
// code: a test harness, an embedding). A service holds an exclusive SQLite lock on DATA/service.lock
// for its whole life. The lock is the operating system's (fcntl), so it goes with the process, a
// `kill -9` included: unlike a pid file, no crash can leave a stale one behind.
//
// The lock is held per role. DATA/service.lock is the API's half, DATA/worker.lock the
// worker's (scheduler and deliveries); `--role all` holds both. So one `api` and one `worker` process
// share a data directory (and its SQLite file), and a second of either is refused.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LOCK_FILE, WORKER_LOCK_FILE, type ServiceRole } from '../../../api/values/local-service.js';

/** How long a starting service waits for a checker's brief look at the lock to end. */
const ACQUIRE_TIMEOUT_MS = 2_000;

/** One half of the data directory: what a role holds. */
export type RolePart = 'api' | 'worker';

const LOCK_FILES: Record<RolePart, string> = { api: LOCK_FILE, worker: WORKER_LOCK_FILE };

/** The halves a role holds. */
export const partsOf = (role: ServiceRole): RolePart[] => (role === 'all' ? ['api', 'worker'] : [role]);

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    message: string,
    /** The half another process holds. */
    readonly part: RolePart,
  ) {
    super(message);
  }
}

export interface DataDirLock {
  release(): void;
}

const isBusy = (error: unknown) => /SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(`${(error as { code?: string }).code ?? ''} ${(error as Error).message}`);

function holdPart(dataDir: string, part: RolePart): DataDirLock {
  const file = path.join(dataDir, LOCK_FILES[part]);
  const db = new Database(file, { timeout: ACQUIRE_TIMEOUT_MS });
  try {
    // In EXCLUSIVE locking mode the first write takes the exclusive lock and keeps it until close.
    db.pragma('locking_mode = EXCLUSIVE');
    // The file's rows only say who holds it (the lock is what counts): no journal file and no fsync
    // to write them, which were two synced commits on every start.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, new Date().toISOString());
  } catch (error) {
    db.close();
    if (isBusy(error)) {
      const what = part === 'api' ? 'serving the API (--role api or all)' : 'running the jobs and webhook deliveries (--role worker or all)';
      throw new DataDirInUseError(`another svc service is running on ${dataDir}, ${what} (stop it first: svc server stop --data ${dataDir})`, part);
    }
    throw error;
  }
  fs.chmodSync(file, 0o600);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}

/**
 * Takes the data directory's halves `role` runs, or throws DataDirInUseError (naming the half) if
 * another process holds one: nothing is kept then.
 */
export function holdDataDirLock(dataDir: string, role: ServiceRole = 'all'): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const held: DataDirLock[] = [];
  try {
    for (const part of partsOf(role)) held.push(holdPart(dataDir, part));
  } catch (error) {
    for (const h of held) h.release();
    throw error;
  }
  return { release: () => held.forEach((h) => h.release()) };
}

/** True while a process holds this half of the data directory (whether or not it wrote a pid file). */
export function partInUse(dataDir: string, part: RolePart): boolean {
  const file = path.join(dataDir, LOCK_FILES[part]);
  if (!fs.existsSync(file)) return false;
  const db = new Database(file, { timeout: 0, fileMustExist: true });
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    if (isBusy(error)) return true;
    throw error;
  } finally {
    db.close();
  }
}

/** True while any service process (api, worker or all) holds the data directory. */
export function dataDirInUse(dataDir: string): boolean {
  return partInUse(dataDir, 'api') || partInUse(dataDir, 'worker');
}
