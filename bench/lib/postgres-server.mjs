// A throwaway PostgreSQL server for a benchmark: the test helper's way of starting one
// (test/helpers/postgres.ts: Debian's server binaries, run as an unprivileged user since initdb refuses
// root, on 127.0.0.1 at a free port, its data in a temporary directory, max_connections 200), but
// DURABLE: fsync, synchronous_commit and full_page_writes at PostgreSQL's defaults (on), so every
// COMMIT waits for its WAL flush as a real deployment's does. The test helper turns them off; a
// benchmark of commits must not. One database per column (`createDatabase`).
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const SUPERUSER = 'svc_bench';

/** initdb's and postgres's directory: BENCH_PG_BIN (or SVC_TEST_PG_BIN), else Debian's newest /usr/lib/postgresql/<n>/bin. */
function binDir() {
  const fromEnv = process.env.BENCH_PG_BIN ?? process.env.SVC_TEST_PG_BIN;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server under ${root}: install it (apt-get install postgresql) or set BENCH_PG_BIN`);
  return join(root, versions[0], 'bin');
}

/** As root (which initdb refuses): the `postgres` user, else `nobody`. */
function serverUser() {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root, and no `postgres` or `nobody` user to run the bench PostgreSQL server as');
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * Starts the server; resolves once it accepts connections. `stop()` ends it and removes its files,
 * `kill()` at once (a bench's hard deadline). `durable: false` turns fsync and synchronous commits off,
 * for a bench that counts deliveries rather than times commits (bench/replicas); the settings line
 * says which was used.
 */
/** BENCH_PG_SETTINGS: extra server settings, "name=value" separated by spaces, for a diagnosis. */
const extraSettings = () => (process.env.BENCH_PG_SETTINGS ?? '').split(/\s+/).filter(Boolean).flatMap((s) => ['-c', s]);

export async function startBenchPostgres({ durable = true } = {}) {
  const { default: pg } = await import('pg');
  const bin = binDir();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], { encoding: 'utf8', cwd: dir, ...user });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  const child = spawn(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'max_connections=300', ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off']), ...extraSettings()], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    ...user,
  });
  let log = '';
  child.stderr.on('data', (c) => (log = (log + c.toString()).slice(-4000)));
  // BENCH_PG_LOG=FILE: the server's whole log kept there (with BENCH_PG_SETTINGS, say
  // "log_min_error_statement=error", which statements lost their races).
  if (process.env.BENCH_PG_LOG) child.stderr.pipe(createWriteStream(process.env.BENCH_PG_LOG, { flags: 'a' }));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const url = (database) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`the bench PostgreSQL server exited at start: ${log}`);
    }
    try {
      await admin('SELECT 1');
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the bench PostgreSQL server did not accept connections within 60 s: ${err.message}\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const settings = (await admin("SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) AS s FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'server_version')")).rows[0].s;
  let databases = 0;
  return {
    port,
    /** The server's process id (its backends are its children): a bench may read its CPU time. */
    pid: child.pid,
    url,
    /** fsync=on full_page_writes=on server_version=… synchronous_commit=on, read back from the server. */
    settings,
    async createDatabase(prefix) {
      const name = `${prefix}_${++databases}`;
      await admin(`CREATE DATABASE ${name} TEMPLATE template0`);
      return url(name);
    },
    kill() {
      process.removeListener('exit', killOnExit);
      killOnExit();
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
