import { configDefaults, defineConfig } from 'vitest/config';
import { onPostgres, POSTGRES_PASS_ONLY_FILES, postgresPassFiles } from './test/helpers/sqlite-only.js';

export default defineConfig({
  test: {
    // With SVC_TEST_STORE=postgres, the end-to-end files only (those that start a test
    // service), less the SQLite-only ones (test/helpers/sqlite-only.ts says which and why).
    include: onPostgres ? postgresPassFiles(import.meta.dirname) : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The files that belong to the PostgreSQL pass alone (sqlite-only.ts says which and why).
    exclude: onPostgres ? configDefaults.exclude : [...configDefaults.exclude, ...Object.keys(POSTGRES_PASS_ONLY_FILES)],
    // End-to-end tests start real services on loopback; keep the pool small on 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
    // A bound for a test that hangs, not a performance check (benchmarks measure speed): generous,
    // since a shared 2-core machine under load runs end-to-end and terminal tests several times
    // slower than a quiet one (terminal and child-process tests timed out at 20 s).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
