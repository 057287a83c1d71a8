import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SQLITE_SCHEMA } from './migrations.js';
import type { SchemaChange } from '../shared/schema-changes.js';

export type Db = Database.Database;

/**
 * Opens the service's one SQLite file. WAL with synchronous=NORMAL: a commit survives a process crash
 * (the WAL is fsynced at checkpoints; only power loss can drop the last transactions).
 * journal_size_limit keeps the WAL from growing without bound between checkpoints.
 */
export function openDatabase(file: string): Db {
  const fresh = file !== ':memory:' && !existsSync(file);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // A new file starts as a copy of an empty database already migrated (made once per process):
  // running every migration's DDL was a quarter of a fresh start's time, and svc/testing and the
  // test suites start many fresh services in one process (ready in well under a second).
  if (fresh) writeFileSync(file, migratedImage(), { mode: 0o600, flag: 'wx' });
  const db = new Database(file);
  // The database holds webhook signing secrets: owner-only. SQLite creates the -wal and -shm files
  // with the database file's permissions, so this comes before WAL mode is switched on.
  if (file !== ':memory:') chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('journal_size_limit = 67108864');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  migrate(db);
  // The image's migrations were applied when it was made: record this file's own start instead.
  if (fresh) db.prepare('UPDATE schema_migrations SET applied_at = ?').run(new Date().toISOString());
  cacheStatements(db);
  return db;
}

let image: Buffer | undefined;

/**
 * An empty database at the newest schema, as the bytes of its file: every migration applied once to
 * an in-memory database with the same pragmas a file gets that matter to DDL (foreign keys). Its
 * rows are the migrations' own (schema_migrations, any seed rows); nothing in it is per-service (keys
 * and accounts are written by the bootstrap after the open). WAL mode is the file's, set after.
 */
function migratedImage(): Buffer {
  if (!image) {
    const memory = new Database(':memory:');
    memory.pragma('foreign_keys = ON');
    migrate(memory);
    image = memory.serialize();
    memory.close();
  }
  return image;
}

/** Statements kept per SQL text (a bound, not a leak: dynamic SQL has a few shapes per query). */
const STATEMENT_CACHE_LIMIT = 1000;

/**
 * `db.prepare` answers the statement already prepared for the same SQL text: repositories that
 * prepare in a method (rather than in their constructor) no longer compile the SQL on every call —
 * a CPU profile of test sends showed 9 % of the service's time in `prepare`. Safe because nothing
 * changes a statement's mode (`pluck`, `raw`, `expand`, `safeIntegers` are not used: a test checks)
 * and nothing iterates one statement twice at once (`iterate` is not used).
 */
export function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear();
      cache.set(sql, statement);
    }
    return statement;
  }) as Db['prepare'];
}

/**
 * Brings the file to this build's schema (SQLITE_SCHEMA.pending: all of it at once when new, else the
 * steps after the version it records), each step in its own transaction. A file newer than this build,
 * or older than it migrates, is refused with UnsupportedSchemaError, nothing changed.
 * `changes` is SCHEMA_CHANGES but in the storage contract's own check.
 */
export function migrate(db: Db, changes?: readonly SchemaChange[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = db.prepare('SELECT version FROM schema_migrations').all().map((r) => (r as { version: number }).version);
  for (const m of SQLITE_SCHEMA.pending(applied, changes)) {
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
    })();
  }
}

/** Folds the write-ahead log into the file and switches it off: the database is then one file to copy or rename. */
export function leaveNoJournal(db: Db): void {
  db.pragma('journal_mode = DELETE');
}
