import { it, type TestFunction } from 'vitest';
import { onPostgres, SINGLE_REPLICA_TESTS, SQLITE_ONLY_TESTS, testReplicas } from './sqlite-only.js';

// Issue 26: the end-to-end files run twice in CI, on SQLite and with SVC_TEST_STORE=postgres
// (`npm run test:postgres`). What is about SQLite itself (its file on disk, its WAL, a snapshot of the
// file, the SQLite engine's own classes) cannot run on PostgreSQL: it is listed in ./sqlite-only.ts,
// each with why, and nowhere else. The PostgreSQL pass leaves out the files (vitest.config.ts reads
// the list) and reports each test there as skipped with its reason in its name: nothing is skipped silently.

export { onPostgres };

/** `it`, or on PostgreSQL a skip whose name says why (the reason comes from SQLITE_ONLY_TESTS). */
export function itOnSqlite(name: string, fn: TestFunction): void {
  const reason = SQLITE_ONLY_TESTS[name];
  if (reason === undefined) throw new Error(`itOnSqlite: add "${name}" and why it is SQLite-only to SQLITE_ONLY_TESTS`);
  if (onPostgres) it.skip(`${name} [SQLite only: ${reason}]`, fn);
  else it(name, fn);
}

/** `it`, or with replicas (SVC_TEST_REPLICAS=2 or more) a skip whose name says why (from SINGLE_REPLICA_TESTS). */
export function itOnOneReplica(name: string, fn: TestFunction): void {
  const reason = SINGLE_REPLICA_TESTS[name];
  if (reason === undefined) throw new Error(`itOnOneReplica: add "${name}" and why it needs one replica to SINGLE_REPLICA_TESTS`);
  if (testReplicas > 1) it.skip(`${name} [one replica only: ${reason}]`, fn);
  else it(name, fn);
}
