import { UniqueConstraintError } from '../storage-errors.js';

/** better-sqlite3's code for a UNIQUE (or partial unique index) violation: the engine's own term, translated here. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';

/** SQLite's codes for a row refused by a unique key: a UNIQUE index or a PRIMARY KEY. */
const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

/**
 * The engine-neutral error for a unique-key violation (storage-errors.ts), whatever repository's
 * statement hit it: the store translates at every savepoint, so no SqliteError about a duplicate
 * crosses the storage boundary (test/storage-contract found them everywhere but numbers.insert).
 * SQLite names the table in its message: "UNIQUE constraint failed: messages.id".
 */
export function inStorageTerms(err: unknown): unknown {
  const code = (err as { code?: string } | null)?.code;
  if (!code || !UNIQUE_CODES.has(code)) return err;
  const table = /constraint failed: (\w+)\./.exec((err as Error).message)?.[1] ?? 'unknown';
  return new UniqueConstraintError(table);
}
