import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// End-to-end tests go through public surfaces: HTTP, the CLI, svc/testing. What only storage shows
// is read by test/helpers/inspect.ts, the one helper (with the storage contract suite,
// test/storage-contract) that touches repositories.
//
// Two rules. No test file, and no fixture the test files share, reaches a repository or runs SQL
// (REPOSITORIES_OR_SQL): no exception. And a test file that reaches past the surfaces in any other
// way (an import from src/server to unit-check a module beside the end-to-end runs, the service's
// process mechanics) is listed below with why; the list only shrinks: a new file is never added, and
// a converted file must leave it.

const REPOSITORIES_OR_SQL = new RegExp(
  [
    // The service's unit of work or store, the storage modules, the SQLite handle (`svc.db`, not the file name 'svc.db'), SQL through the test's helper.
    /deps\.(uow|store)\b|from '[^']*src\/server\/storage\/|(?<!['"/])\bsvc\.db\b(?!['"])|\.sql\.(get|all|run)\b/.source,
    /\b(query|prepare|exec)(<[^>]*>)?\(\s*[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH)\b/.source,
    /from '(pg|better-sqlite3)'|import\('(pg|better-sqlite3)'\)/.source,
  ].join('|'),
);

/** Shared files under test/ that may touch storage, and why; every other fixture is held to the rule. */
const STORAGE_HELPERS: Record<string, string> = {
  'helpers/inspect.ts': 'the one inspection helper: what only storage shows, each by name',
  'helpers/test-sql.ts': "inspect.ts's SQL, on either engine",
  'helpers/service.ts': 'the harness: starts the service (and its replicas) and hands tests the handle',
  'helpers/postgres.ts': 'starts and stops throwaway PostgreSQL servers',
  'helpers/domain-fixture.ts': "the domain unit tests' fixture (src/**/*.test.ts): the composed service in memory; no test file imports it",
};

const REACH_IN = new RegExp(
  [
    // The handle's connection (`svc.db`), not the file's name ('svc.db').
    /deps\.uow|deps\.(events|scheduler|store)\b|from '\.\.\/src\/server\/|\.sql\.(get|all|run)\b|(?<!['"/])\bsvc\.db\b(?!['"])/.source,
    // SQL text run by the file itself, and a database client of its own to run it on.
    /\b(query|prepare|exec)(<[^>]*>)?\(\s*[`'"]\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH)\b/.source,
    /from '(pg|better-sqlite3)'|import\('(pg|better-sqlite3)'\)/.source,
    // The server's modules loaded from the build, in this process or a script it runs.
    /import\([^\n]*dist\/server\//.source,
  ].join('|'),
);

/** Files that still reach in, and why. Remove a file once it no longer does; never add one. */
const STILL_REACHING_IN: Record<string, string> = {
  'chaos-scope.test.ts': 'starts the service through src/server/main.js with options no public surface takes',
  'chaos.test.ts': 'unit-checks the chaos dice (src/server/world/chaos.ts) beside the end-to-end runs',
  'client-bounds.test.ts': 'socket-level limits: reads the HTTP layer\'s own constants and holds',
  'console-browser.test.ts': 'reads the console kit\'s asset names',
  'console.test.ts': 'signals each process\'s events hub as another process does (a resync after dropped notices, a hint of a commit elsewhere): process mechanics no surface makes',
  'security-privilege.test.ts': 'unit-checks log redaction (src/server/http/log-redaction.ts: redactUrl, redactHeaders, scrubSecrets) beside the end-to-end runs',
  'validation-words.test.ts': 'checks the wording table of the validator itself',
  'webhooks-fairness.test.ts': 'drives the fair-slot scheduler (a unit of the worker) directly',
  'webhooks-receiver-down.test.ts': 'reads the retry schedule table the spec names, to walk the clock to each attempt',
};

const TEST_DIR = new URL('.', import.meta.url).pathname;
// This file spells the patterns it looks for, so it is not read for them.
const testFiles = readdirSync(TEST_DIR).filter((f) => f.endsWith('.test.ts') && f !== 'public-surfaces.test.ts');
const read = (file: string) => readFileSync(join(TEST_DIR, file), 'utf8');
const reachesIn = (file: string) => REACH_IN.test(read(file));
const fixtures = [
  ...readdirSync(TEST_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')),
  ...readdirSync(join(TEST_DIR, 'helpers')).filter((f) => f.endsWith('.ts')).map((f) => `helpers/${f}`),
];

describe('end-to-end tests use public surfaces', () => {
  it('no test file, and no fixture they share, reaches a repository or runs SQL', () => {
    const offenders = [...testFiles, ...fixtures.filter((f) => !(f in STORAGE_HELPERS))].filter((f) => REPOSITORIES_OR_SQL.test(read(f)));
    expect(offenders, 'use HTTP, the CLI or svc/testing; what only storage shows goes through test/helpers/inspect.ts').toEqual([]);
  });

  it('the storage helpers named exist', () => {
    expect(Object.keys(STORAGE_HELPERS).filter((f) => !fixtures.includes(f))).toEqual([]);
  });

  it('no test file outside the shrinking list reaches into the service', () => {
    const offenders = testFiles.filter((f) => reachesIn(f) && !(f in STILL_REACHING_IN));
    expect(offenders, 'use HTTP, the CLI or svc/testing; what only storage shows goes through test/helpers/inspect.ts').toEqual([]);
  });

  it('the list only names files that still reach in (a converted file leaves it)', () => {
    const stale = Object.keys(STILL_REACHING_IN).filter((f) => !testFiles.includes(f) || !reachesIn(f));
    expect(stale, 'remove these from STILL_REACHING_IN').toEqual([]);
  });
});
