import { it, type TestFunction } from 'vitest';
import { onPostgres, SINGLE_REPLICA_TESTS, SQLITE_ONLY_TESTS, testReplicas } from './sqlite-only.js';
import type { TestService } from './service.js';

// The end-to-end files run twice in CI, on SQLite and on PostgreSQL as two replicas on one
// database (SVC_TEST_REPLICAS=2, `npm run test:replicas`; `npm run test:postgres` is the same files
// on one replica). What is about SQLite itself (its file on disk, its WAL, a snapshot of the file, the
// SQLite engine's own classes) cannot run on PostgreSQL: it is listed in ./sqlite-only.ts, each with
// why, and nowhere else. The PostgreSQL passes leave out the files (vitest.config.ts reads the list)
// and report each test there as skipped with its reason in its name: nothing is skipped silently.
// What needs one process runs on one replica in the replicas pass (itOnOneReplica), never skipped.

export { onPostgres };

/** `it`, or on PostgreSQL a skip whose name says why (the reason comes from SQLITE_ONLY_TESTS). */
export function itOnSqlite(name: string, fn: TestFunction): void {
  const reason = SQLITE_ONLY_TESTS[name];
  if (reason === undefined) throw new Error(`itOnSqlite: add "${name}" and why it is SQLite-only to SQLITE_ONLY_TESTS`);
  if (onPostgres) it.skip(`${name} [SQLite only: ${reason}]`, fn);
  else it(name, fn);
}

/**
 * `it` for a test that needs one replica (SINGLE_REPLICA_TESTS says which and why). It runs in every
 * pass: in the replicas pass (SVC_TEST_REPLICAS=2 or more) against ONE replica on PostgreSQL, its
 * name saying so, so every end-to-end test still runs on PostgreSQL. `service` is the service the
 * test talks to, started with ONE_REPLICA (./service.ts); the test fails if it runs as several.
 */
export function itOnOneReplica(name: string, service: () => Pick<TestService, 'replicas'>, fn: () => Promise<void>): void {
  const reason = SINGLE_REPLICA_TESTS[name];
  if (reason === undefined) throw new Error(`itOnOneReplica: add "${name}" and why it needs one replica to SINGLE_REPLICA_TESTS`);
  it(testReplicas > 1 ? `${name} [on one replica: ${reason}]` : name, async () => {
    const running = service().replicas.length;
    if (running !== 1) throw new Error(`itOnOneReplica: "${name}" talks to ${running} replicas; start its service with ONE_REPLICA`);
    await fn();
  });
}
