// The README's "Shared: PostgreSQL, replicas and a worker" block, run as written in bash
// from an empty HOME with `svc` on PATH (as test/readme-in-order.test.ts runs the others), against a
// throwaway PostgreSQL server: the only thing the test adds is SVC_STORE, the empty database the
// block tells the reader to set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeBlock } from './helpers/readme-blocks.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { pgAccountIds, pgReplicaCount } from './helpers/inspect.js';

/** Three service starts and stops on a shared, loaded machine: a bound against a hang. */
const RUN_TIMEOUT_MS = 180_000;

let pg: PostgresServer;
let url: string;
const shell = freshShellHome('svc-readme-postgres-');
beforeAll(async () => {
  pg = await startPostgres();
  url = pg.url(await pg.createDatabase());
}, 120_000);
afterAll(async () => {
  // Whatever the block left running is stopped before its database goes.
  await shell.runScript(['a', 'b', 'w'].map((d) => `svc server stop --data ~/svc-${d} >/dev/null 2>&1`).join('; '), 60_000);
  shell.cleanup();
  await pg?.stop();
}, 120_000);

describe('README: a shared service on PostgreSQL', () => {
  it('runs as written: two API replicas and a worker on one database, the second joining the first', async () => {
    const block = readmeBlock('shared');
    const res = await shell.runScript(`set -euo pipefail\nSVC_STORE='${url}'\n${block}`, RUN_TIMEOUT_MS);
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
    const out = `${res.stdout}\n${res.stderr}`;
    // Both replicas listen; the second made no keys of its own.
    expect(out.match(/http:\/\/127\.0\.0\.1:\d+/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(out.match(/live key: sk_live_/g)?.length).toBe(1);
    expect(out).toMatch(/worker running in the background/);
    expect(out).toMatch(/"roles": "api"/);
    // The worker's own data directory: running (exit 0 under set -e), the database it serves.
    expect(out).toMatch(/"roles": "worker"/);
    expect(out).toMatch(/runs the jobs and webhook deliveries of postgres:\/\//);
    // The database holds one bootstrap, and all three processes registered as replicas then left.
    expect(await pgAccountIds(url)).toHaveLength(1);
    expect(await pgReplicaCount(url)).toBe(0);
  }, RUN_TIMEOUT_MS + 30_000);
});
