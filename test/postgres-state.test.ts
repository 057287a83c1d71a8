import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from './helpers/cli.js';
import { postgresBinDir, startPostgres, type PostgresServer } from './helpers/postgres.js';
import { startTestService, type TestService } from './helpers/service.js';
import { STORE_FILE } from '../src/api/values/local-service.js';

// `svc server snapshot save|load` and `svc server reset` on a data directory whose service
// keeps its data in PostgreSQL refuse (exit 8), change nothing, and print PostgreSQL's own commands;
// the commands printed, run as printed, do what was asked.

let server: PostgresServer;
let url: string;
let dataDir: string;
let svc: TestService;

beforeAll(async () => {
  server = await startPostgres();
  url = server.url(await server.createDatabase());
  dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-state-'));
  svc = await startTestService({ store: url, dataDir });
  await svc.stop();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string | undefined> = {}) => runSvc([...args, '--data', dataDir], { service: svc, env: { SVC_STORE: undefined, ...env } });
/** The sub-account names in the database, through a service started on it (then stopped). */
async function subaccounts(): Promise<string[]> {
  const s = await startTestService({ store: url, dataDir });
  try {
    return (await s.call('GET', '/v1/subaccounts?limit=100')).body.data.map((a: { name: string }) => a.name).sort();
  } finally {
    await s.stop();
  }
}
/** The lines of a refusal that are commands (not the `#` notes), run in a shell with PostgreSQL's tools on PATH. */
function runPrinted(stderr: string, cwd: string): void {
  const commands = stderr.split('\n').map((l) => l.trim()).filter((l) => /^(pg_dump|pg_restore|psql) /.test(l));
  expect(commands.length).toBeGreaterThan(0);
  for (const c of commands) execFileSync('sh', ['-c', c], { cwd, env: { PATH: `${postgresBinDir()}:${process.env.PATH}` }, stdio: 'pipe' });
}

describe('snapshots and reset of a service on PostgreSQL', () => {
  it('a service on PostgreSQL records it in its data directory; one on SQLite removes the record', async () => {
    expect(existsSync(join(dataDir, STORE_FILE))).toBe(true);
    const other = mkdtempSync(join(tmpdir(), 'svc-pg-state-sqlite-'));
    try {
      await (await startTestService({ store: url, dataDir: other })).stop();
      const sqlite = await startTestService({ dataDir: other });
      await sqlite.stop();
      // SVC_TEST_STORE=postgres gives a service a database unless it names a store: this one named none
      // only when the run is on SQLite.
      if (!sqlite.storeUrl) expect(existsSync(join(other, STORE_FILE))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('save refuses (exit 8), writes no snapshot, and its pg_dump, as printed, saves the database', async () => {
    const res = await cli(['server', 'snapshot', 'save', 'before']);
    expect(res.code, res.stderr).toBe(8);
    expect(res.stderr).toContain('PostgreSQL');
    expect(res.stderr).toContain(`pg_dump --format=custom --file=before.dump ${url}`);
    expect(res.stderr).toContain('Nothing was changed');
    expect(existsSync(join(dataDir, 'snapshots', 'before.db'))).toBe(false);

    const work = mkdtempSync(join(tmpdir(), 'svc-pg-dump-'));
    try {
      runPrinted(res.stderr, work);
      expect(existsSync(join(work, 'before.dump'))).toBe(true);
      // Something happens after the save…
      const s = await startTestService({ store: url, dataDir });
      expect((await s.call('POST', '/v1/subaccounts', { body: { name: 'After the dump' } })).status).toBe(201);
      await s.stop();
      expect(await subaccounts()).toEqual(['After the dump']);
      // …and load refuses too, printing the pg_restore that brings the database back as it was saved.
      const load = await cli(['server', 'snapshot', 'load', 'before']);
      expect(load.code, load.stderr).toBe(8);
      expect(load.stderr).toContain(`pg_restore --clean --if-exists --single-transaction --no-owner --dbname=${url} before.dump`);
      expect(await subaccounts()).toEqual(['After the dump']); // the refusal changed nothing
      runPrinted(load.stderr, work);
      expect(await subaccounts()).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('reset refuses (exit 8), changes nothing, and its psql, as printed, empties the database for a fresh start', async () => {
    const s = await startTestService({ store: url, dataDir });
    expect((await s.call('POST', '/v1/subaccounts', { body: { name: 'Before the reset' } })).status).toBe(201);
    await s.stop();
    const res = await cli(['server', 'reset']);
    expect(res.code, res.stderr).toBe(8);
    expect(res.stderr).toContain(`psql ${url} --single-transaction -c 'DROP SCHEMA public CASCADE' -c 'CREATE SCHEMA public'`);
    expect(await subaccounts()).toEqual(['Before the reset']);
    runPrinted(res.stderr, dataDir);
    const fresh = await startTestService({ store: url, dataDir });
    try {
      expect(fresh.bootstrapCreated).toBe(true);
      expect((await fresh.call('GET', '/v1/subaccounts')).body.data).toEqual([]);
    } finally {
      await fresh.stop();
    }
  });

  it('SVC_STORE names PostgreSQL too; a password in it is never printed', async () => {
    const other = mkdtempSync(join(tmpdir(), 'svc-pg-state-env-'));
    try {
      const secret = url.replace('://svc_test@', '://svc_test:hunter2-secret@');
      const res = await runSvc(['server', 'snapshot', 'save', 'x', '--data', other], { service: svc, env: { SVC_STORE: secret } });
      expect(res.code).toBe(8);
      expect(res.stderr).not.toContain('hunter2-secret');
      expect(res.stderr).toContain('svc_test:redacted@');
      expect(res.stderr).toContain('PGPASSWORD');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
