// issue 15: one service per data directory, and a way for `svc server snapshot load` and `svc server
// reset` to know that a service is using it even when it left no server.json (a service started from
// code: a test harness, an embedding). A service holds an exclusive SQLite lock on DATA/service.lock
// for its whole life. The lock is the operating system's (fcntl), so it goes with the process, a
// `kill -9` included: unlike a pid file, no crash can leave a stale one behind.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LOCK_FILE } from '../../../api/values/local-service.js';

/** How long a starting service waits for a checker's brief look at the lock to end. */
const ACQUIRE_TIMEOUT_MS = 2_000;

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

export interface DataDirLock {
  release(): void;
}

const isBusy = (error: unknown) => /SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(`${(error as { code?: string }).code ?? ''} ${(error as Error).message}`);

/** Takes the data directory for this process, or throws DataDirInUseError if another service has it. */
export function holdDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(path.join(dataDir, LOCK_FILE), { timeout: ACQUIRE_TIMEOUT_MS });
  try {
    // In EXCLUSIVE locking mode the first write takes the exclusive lock and keeps it until close.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, new Date().toISOString());
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new DataDirInUseError(`another svc service is running on ${dataDir} (stop it first: svc server stop --data ${dataDir})`);
    throw error;
  }
  fs.chmodSync(path.join(dataDir, LOCK_FILE), 0o600);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}

/** True while a service holds the data directory (whether or not it wrote server.json). */
export function dataDirInUse(dataDir: string): boolean {
  const file = path.join(dataDir, LOCK_FILE);
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
