import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// What cannot run on PostgreSQL, each with why (test/helpers/engines.ts explains the
// two passes). No vitest import here: vitest.config.ts reads this file to choose the PostgreSQL pass.

/** How many replicas each test service runs as (SVC_TEST_REPLICAS; 1 unless told). */
export const testReplicas = Number(process.env.SVC_TEST_REPLICAS ?? '1');

/** Whether this run's test services are on PostgreSQL (SVC_TEST_REPLICAS=2 or more implies it). */
export const onPostgres = process.env.SVC_TEST_STORE === 'postgres' || testReplicas > 1;

/**
 * Tests (by name) that cannot hold with two replicas behind one address by their nature, and why
 * (the replicas pass: SVC_TEST_REPLICAS=2, test/helpers/service.ts). Each is written with
 * `itOnOneReplica` (./engines.ts) against a service started with ONE_REPLICA: in the replicas pass
 * it runs against one replica on PostgreSQL, its name carrying the reason, so it is never skipped.
 */
export const SINGLE_REPLICA_TESTS: Record<string, string> = {
  'allows a burst of 10, then answers 429 rate_limited with Retry-After; another key is unaffected':
    "counts one bucket's RateLimit-Remaining down request by request; replicas each enforce their share of the limit, " +
    'shown in their headers (the limit holding across replicas is test/postgres-replicas.test.ts)',
  'answers 429 with Retry-After once an address used its bucket, while a good key on it is served':
    'counts the refused requests one bucket lets through before its 429 (at least the burst); replicas each enforce their share, ' +
    'and the good-key requests between the refused ones make the refused land unevenly, so one share runs dry before the whole burst is used ' +
    '(the limit holding across replicas is test/postgres-replicas.test.ts)',
  '16 MCP requests at once per key, then 429; an abandoned wait lets go of its held read':
    'counts the MCP requests and held reads one process holds for a key (each process bounds its own, as it does held reads); ' +
    'with two replicas the 16 waits are split between them and the 17th meets half the count',
  'takes in a bounded number of bytes a second: past it, 429 with Retry-After before the body is read, the request not kept':
    "counts the bytes one process takes in for a sink a second (each process bounds its own intake, as it does held reads); " +
    'with two replicas behind one address each takes its own second\'s worth, so twice as many are taken before the first 429',
};

/** Test files about SQLite itself, left out of the PostgreSQL pass. */
export const SQLITE_ONLY_FILES: Record<string, string> = {
  'test/server-snapshots.test.ts': 'snapshot save|load of the SQLite file (DATA/snapshots/*.db); on PostgreSQL the commands refuse, tested in test/postgres-state.test.ts',
  'test/crash-recovery.test.ts': 'kills services it starts as child processes (SQLite in their data directories; a child does not follow SVC_TEST_STORE) mid-write and restarts them',
  'test/crash-recovery-email.test.ts': 'kills a service process started with SQLite in its data directory and reads the SQLite file it left',
  'test/fuzz-openapi.test.ts': "proves a refused request changed nothing by hashing every row after each of thousands of requests, skipping unchanged databases by SQLite's total_changes() (PostgreSQL has no per-connection change counter)",
  'test/testing-kit.test.ts': "svc/testing's reset() restores SQLite tables from an attached :memory: copy (storage/sqlite/reset-point.ts)",
  'test/testing-example.test.ts': 'installs the packed package and runs an app suite on its embedded SQLite service',
};

/**
 * Files that start a PostgreSQL server of their own and run in the PostgreSQL pass only, each with
 * why: the pass where replicas and workers on PostgreSQL are tested, and too long to run twice. (Run
 * one alone with SVC_TEST_STORE=postgres.)
 */
export const POSTGRES_PASS_ONLY_FILES: Record<string, string> = {
  'test/postgres-outage.test.ts':
    'stops and restarts its own PostgreSQL server (-m immediate, -m fast, idle and under sends) under two API replicas and a worker, real processes of the built CLI (a minute)',
};

/** Tests (by name) of files that otherwise run on PostgreSQL, and why each cannot. */
export const SQLITE_ONLY_TESTS: Record<string, string> = {
  'are readable by their owner only (they hold webhook secrets)': 'the SQLite database files and their modes (a PostgreSQL server keeps its own files)',
  'is not in the database files or the WAL': 'reads the SQLite file and its write-ahead log byte by byte',
};

/**
 * The files of the PostgreSQL pass: every test file under test/ that starts a test service (it, or
 * a helper it imports from test/, calls startTestService), less SQLITE_ONLY_FILES and those that
 * start a PostgreSQL server of their own (they run in the first pass, on PostgreSQL already), plus
 * POSTGRES_PASS_ONLY_FILES. A file that starts none (the CLI's help, the man pages, unit tests under
 * src/) would only run again unchanged.
 */
export function postgresPassFiles(root: string): string[] {
  const testDir = join(root, 'test');
  const startsService = new Map<string, boolean>();
  const visit = (file: string): boolean => {
    const known = startsService.get(file);
    if (known !== undefined) return known;
    startsService.set(file, false); // a cycle answers no until proven
    const text = readFileSync(file, 'utf8');
    let yes = /\bstartTestService\(/.test(text) && !file.endsWith(join('helpers', 'service.ts'));
    // A file that starts a PostgreSQL server of its own is about the engine: the SQLite pass runs it already.
    if (/\bstartPostgres\(/.test(text) && file.endsWith('.test.ts')) return false;
    for (const [, spec] of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      if (yes) break;
      const target = resolve(dirname(file), `${spec}.ts`);
      if (target.startsWith(testDir) && existsSync(target)) yes = visit(target);
    }
    startsService.set(file, yes);
    return yes;
  };
  return readdirSync(testDir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(testDir, f))
    .filter((f) => visit(f))
    .map((f) => relative(root, f))
    .filter((f) => !(f in SQLITE_ONLY_FILES))
    .concat(Object.keys(POSTGRES_PASS_ONLY_FILES))
    .sort();
}
