import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, runSvcProcess } from './helpers/cli.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { pgMessages, pgTableNames, plantNewerPgSchema } from './helpers/inspect.js';

// `svc server start --store postgres://…` (env SVC_STORE) and `--pool-size`, as a user
// runs them: bad values refused naming the flag (exit 2), a database of another schema refused with
// exit 5 and nothing changed, a detached service on PostgreSQL that answers, and a password in the
// URL never printed, logged or put in the child's argv.

let server: PostgresServer;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-cli-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  assertBuilt();
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A URL for `database` with a password in it (the throwaway server trusts loopback: it is ignored). */
const withPassword = (database: string) => server.url(database).replace('://svc_test@', '://svc_test:hunter2-secret@');

describe('svc server start --store', () => {
  it('refuses a store that is not a postgres:// URL, naming the flag, without printing its password (exit 2)', async () => {
    const res = await runSvcProcess(['server', 'start', '--store', 'mysql://root:hunter2-secret@db/svc', '--data', tempDir()]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--store');
    expect(res.stderr).not.toContain('hunter2-secret');
  });

  it('refuses --pool-size out of range, and without a store (exit 2)', async () => {
    const zero = await runSvcProcess(['server', 'start', '--store', 'postgres://x@127.0.0.1:1/db', '--pool-size', '0', '--data', tempDir()]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--pool-size');
    const alone = await runSvcProcess(['server', 'start', '--pool-size', '5', '--data', tempDir()]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--store');
  });

  it('refuses a database of a newer schema with exit 5, naming both versions; nothing changed', async () => {
    const db = await server.createDatabase();
    const url = server.url(db);
    await plantNewerPgSchema(url, 9);
    const res = await runSvcProcess(['server', 'start', '--port', '0', '--data', tempDir()], { env: { SVC_STORE: withPassword(db) } });
    expect(res.code, res.stderr).toBe(5);
    expect(res.stderr).toMatch(/version 9/);
    expect(res.stderr).not.toContain('hunter2-secret');
    expect(await pgTableNames(url)).toEqual(['schema_migrations']);
  });

  it('says the database cannot be reached, with the URL redacted (exit 1)', async () => {
    const res = await runSvcProcess(['server', 'start', '--port', '0', '--data', tempDir(), '--store', 'postgres://svc:hunter2-secret@127.0.0.1:1/nowhere']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('cannot reach PostgreSQL at postgres://svc:redacted@127.0.0.1:1/nowhere');
    expect(res.stderr).not.toContain('hunter2-secret');
  });

  it('starts detached on PostgreSQL (the URL in the child environment, not its argv), serves a send, and stops', async () => {
    const db = await server.createDatabase();
    const dataDir = tempDir();
    const env = { SVC_DATA_DIR: dataDir };
    const started = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--store', withPassword(db), '--pool-size', '4'], { env });
    try {
      expect(started.code, started.stderr).toBe(0);
      const baseUrl = started.stdout.trim();
      const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { pid: number };
      // The child's command line (what `ps` shows any user) holds no password.
      const argv = readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').split('\0');
      expect(argv.join(' ')).not.toContain('hunter2-secret');
      expect(argv).toContain('--pool-size');
      const keys = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { testKey: string };
      const headers = { authorization: `Bearer ${keys.testKey}`, 'content-type': 'application/json' };
      const sent = await fetch(`${baseUrl}/v1/messages`, { method: 'POST', headers, body: JSON.stringify({ from: '+15005550006', to: '+14155550100', body: 'stored in PostgreSQL' }) });
      expect(sent.status).toBe(201);
      expect(await pgMessages(server.url(db), { body: 'stored in PostgreSQL' })).toHaveLength(1);
      expect(readFileSync(join(dataDir, 'server.log'), 'utf8')).not.toContain('hunter2-secret');
    } finally {
      const stopped = await runSvcProcess(['server', 'stop'], { env });
      expect(stopped.code, stopped.stderr).toBe(0);
    }
  });
});
