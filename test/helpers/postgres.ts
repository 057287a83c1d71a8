import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.js';

// A throwaway PostgreSQL server for tests: Debian's server binaries, run as an
// unprivileged user (initdb refuses root), on 127.0.0.1 at a free port, its data in a temporary
// directory, fsync off (a test database need not survive a power cut). Each test gets a database
// of its own, made from a template, and drops it after; the server is stopped at the end.
// Missing binaries fail the test with how to install them: the PostgreSQL tests never skip.

const INSTALL_HINT =
  'the PostgreSQL tests need the PostgreSQL server binaries (initdb, postgres): install them with `apt-get install postgresql` ' +
  '(as root; `bash scripts/install-test-tools.sh` does it), or put their directory in SVC_TEST_PG_BIN';

/** The directory holding initdb and postgres: SVC_TEST_PG_BIN, else Debian's newest /usr/lib/postgresql/<n>/bin. */
export function postgresBinDir(): string {
  const fromEnv = process.env.SVC_TEST_PG_BIN;
  if (fromEnv) {
    if (!existsSync(join(fromEnv, 'initdb'))) throw new Error(`SVC_TEST_PG_BIN=${fromEnv} holds no initdb: ${INSTALL_HINT}`);
    return fromEnv;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server found under ${root}: ${INSTALL_HINT}`);
  return join(root, versions[0]!, 'bin');
}

/** Who runs the server: this user, or (as root, which initdb refuses) `postgres`, else `nobody`. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root, and neither a `postgres` nor a `nobody` user exists to run the test PostgreSQL server as');
}

export interface PostgresServer {
  readonly port: number;
  /** A connection string for one of its databases. */
  url(database: string): string;
  /** A new database, copied from `template` (default template0); returns its name. */
  createDatabase(template?: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /**
   * Shuts the server down as `pg_ctl stop -m <mode>` does, keeping its data for `restart`: `fast`
   * (SIGINT) ends every session with an admin_shutdown error first; `immediate` (SIGQUIT) cuts them
   * with no goodbye, as a crash or a cut link would. Resolves once the server has exited.
   */
  halt(mode: ShutdownMode): Promise<void>;
  /** Starts it again after `halt`, on the same port and data; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data. */
  stop(): Promise<void>;
}

export type ShutdownMode = 'immediate' | 'fast';
const SHUTDOWN_SIGNAL: Record<ShutdownMode, NodeJS.Signals> = { immediate: 'SIGQUIT', fast: 'SIGINT' };

/**
 * Run as `node -e WATCHDOG <parent pid> <dir> <data dir>`: every second, if the test process is gone,
 * stops the server (SIGINT, a fast shutdown), removes its directory and exits; exits as well once the
 * directory is gone (the server stopped for good). The server's pid is read from its postmaster.pid
 * each time, not given once: a server halted and started again (`halt`, `restart`) is a new process,
 * and the one watchdog follows it; a halted server has removed that file, so no pid is signalled then.
 */
const WATCHDOG = `
const fs = require('node:fs');
const [parent, dir, data] = process.argv.slice(1);
const alive = (pid) => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
const serverPid = () => { try { return Number(fs.readFileSync(data + '/postmaster.pid', 'utf8').split('\\n')[0]); } catch { return 0; } };
setInterval(() => {
  if (!fs.existsSync(dir)) process.exit(0);
  if (alive(parent)) return;
  const server = serverPid();
  if (server > 0 && alive(server)) process.kill(server, 'SIGINT');
  setTimeout(() => { fs.rmSync(dir, { recursive: true, force: true }); process.exit(0); }, 5000);
}, 1000);
`;

const SUPERUSER = 'svc_test';
let databases = 0;

export interface StartPostgresOptions {
  /**
   * Commits flushed to the WAL before they are acknowledged (synchronous_commit on). Off by default,
   * for speed: an acknowledged commit then lives in the server's WAL buffers for a moment, and an
   * immediate stop (`halt('immediate')`), like a crash, loses it. A test that counts what survives
   * one turns this on. (fsync stays off: the written WAL is in the OS's cache, which a stopped server
   * does not lose.)
   */
  synchronousCommit?: boolean;
}

/** Starts a server; resolves once it accepts connections. */
export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], {
    encoding: 'utf8',
    cwd: dir,
    ...user,
  });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  }
  const port = await freePort();
  const url = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;

  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };

  /** The running server process: each `launch` (the start, and each `restart`) makes a new one. */
  let child: ChildProcess;
  let exited: Promise<void>;
  // A test run that dies leaves no server behind: on a normal exit the handler below; killed outright
  // (SIGKILL: a test worker ended by vitest, a run stopped by hand) no handler runs, so a watchdog
  // process outlives this one and stops the server once this process is gone (leaked servers were
  // found still running, their parent long dead).
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG, String(process.pid), dir, data], { detached: true, stdio: 'ignore' });
  watchdog.unref();

  const launch = async (): Promise<void> => {
    child = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'fsync=off', '-c', `synchronous_commit=${opts.synchronousCommit ? 'on' : 'off'}`, '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...user },
    );
    const server = child;
    let log = '';
    server.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    // Ready when a connection succeeds (or fails: the server exited).
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null || server.signalCode !== null) {
        process.removeListener('exit', killOnExit);
        watchdog.kill();
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`the test PostgreSQL server exited at start: ${log}`);
      }
      try {
        await admin(async (c) => c.query('SELECT 1'));
        return;
      } catch (err) {
        if (Date.now() > deadline) {
          server.kill('SIGKILL');
          throw new Error(`the test PostgreSQL server did not accept connections within 60 s: ${(err as Error).message}\n${log}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  await launch();

  return {
    port,
    url,
    async createDatabase(template = 'template0') {
      const name = `svc_test_${process.pid}_${++databases}`;
      await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return name;
    },
    async dropDatabase(name) {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
    async halt(mode) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error('the test PostgreSQL server is not running');
      child.kill(SHUTDOWN_SIGNAL[mode]);
      await exited;
    },
    async restart() {
      if (child.exitCode === null && child.signalCode === null) throw new Error('the test PostgreSQL server is running: halt it first');
      await launch();
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      watchdog.kill();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // fast shutdown: ends sessions, no checkpoint wait beyond the minimum
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
