// A throwaway PostgreSQL server for benches (issue 26), as test/helpers/postgres.ts makes one for
// tests: Debian's binaries (SVC_TEST_PG_BIN or the newest /usr/lib/postgresql/<n>/bin), an
// unprivileged user when run as root, 127.0.0.1 on a free port, a temporary directory, fsync off.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

function binDir() {
  if (process.env.SVC_TEST_PG_BIN) return process.env.SVC_TEST_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries: apt-get install postgresql (or set SVC_TEST_PG_BIN)');
  return join(root, versions[0], 'bin');
}

function runAs() {
  if (userInfo().uid !== 0) return {};
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root with no postgres or nobody user to run PostgreSQL as');
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

/** Starts a server; `url(db)`, `createDatabase()`, `stop()`. */
export async function startThrowawayPostgres() {
  const bin = binDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pg-'));
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'svc_bench', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], { encoding: 'utf8', cwd: dir, ...user });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const child = spawn(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=300'], { cwd: dir, stdio: 'ignore', ...user });
  const exited = new Promise((r) => child.once('exit', r));
  const url = (db) => `postgres://svc_bench@127.0.0.1:${port}/${db}`;
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: url('postgres') });
    await c.connect();
    try {
      return await c.query(sql);
    } finally {
      await c.end();
    }
  };
  for (let i = 0; ; i++) {
    try {
      await admin('SELECT 1');
      break;
    } catch (err) {
      if (i > 600 || child.exitCode !== null) throw new Error(`the bench PostgreSQL server did not start: ${err.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  let n = 0;
  return {
    url,
    async createDatabase() {
      const name = `bench_${process.pid}_${++n}`;
      await admin(`CREATE DATABASE ${name}`);
      return name;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
    kill() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
