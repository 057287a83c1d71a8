// The local service in a child process for a benchmark, so the load generator does not share its
// event loop: the bench file re-runs itself with `--serve DATA_DIR`; the child starts the BUILT
// service (npm run build first) on 127.0.0.1:0 with the system clock and a rate limit high enough
// not to interfere, prints one JSON line (its address and keys, plus what the bench adds), then
// answers commands, one JSON line each, until `stop`. BENCH_CHILD_FLAGS passes node flags to the
// child (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). A child may run another checkout's build
// (`root`: a directory with a built dist/), so one run can compare two builds.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This checkout's root: the build a child runs unless it is given another. */
const OWN_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const isServeChild = () => process.argv[2] === '--serve';

/** The child's CPU time so far (user + system, µs): the parent reads it before and after a pass. */
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
export const isFloorChild = () => process.argv[2] === '--floor';

/**
 * In the child: the floor a route of ours is compared with — a minimal Fastify route that
 * validates a small JSON body (Fastify's own schema validation) and inserts one row with
 * better-sqlite3 in a database opened like the service's (WAL, synchronous=NORMAL), answering 201.
 */
export async function serveFloor() {
  if (process.env.BENCH_FLOOR_STORE) return await servePostgresFloor(process.env.BENCH_FLOOR_STORE);
  const { default: Fastify } = await import('fastify');
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(process.argv[3], 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE rows (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, sender TEXT NOT NULL, recipient TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO rows (id, sender, recipient, body, created_at) VALUES (?, ?, ?, ?, ?)');
  const app = Fastify({ logger: false });
  const e164 = { type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' };
  let n = 0;
  app.post('/floor', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['from', 'to', 'body'], properties: { from: e164, to: e164, body: { type: 'string', minLength: 1, maxLength: 1600 } } } },
  }, async (req, reply) => {
    const id = `row_${++n}`;
    insert.run(id, req.body.from, req.body.to, req.body.body, Date.now());
    return reply.status(201).send({ id, status: 'queued' });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address();
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${port}` })}\n`);
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'stop') {
      await app.close();
      db.close();
      process.exit(0);
    }
    if (line === 'cpu') process.stdout.write(`${JSON.stringify(cpuMicros())}\n`);
  });
}

/**
 * In the child: the PostgreSQL floor — the same route and body validation, inserting one
 * row with `pg` (the service's driver) through a pool of the service's size (BENCH_POOL_SIZE, default
 * 10, as the service's), each insert in a transaction of its own as a minimal app writes it: BEGIN,
 * INSERT (a named statement, as the service's), COMMIT on a pooled client (PostgreSQL's default READ
 * COMMITTED).
 */
async function servePostgresFloor(url) {
  const { default: Fastify } = await import('fastify');
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.BENCH_POOL_SIZE ?? 10) });
  await pool.query('CREATE TABLE rows (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL UNIQUE, sender text NOT NULL, recipient text NOT NULL, body text NOT NULL, created_at bigint NOT NULL)');
  const app = Fastify({ logger: false });
  const e164 = { type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' };
  let n = 0;
  app.post('/floor', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['from', 'to', 'body'], properties: { from: e164, to: e164, body: { type: 'string', minLength: 1, maxLength: 1600 } } } },
  }, async (req, reply) => {
    const id = `row_${++n}`;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // Named, as the service's statements are (storage/postgres/sql.ts): parsed and planned once per
      // connection. Without it the floor would pay ~3x the driver's CPU per insert and flatter the send.
      await client.query({ name: 'floor-insert', text: 'INSERT INTO rows (id, sender, recipient, body, created_at) VALUES ($1, $2, $3, $4, $5)', values: [id, req.body.from, req.body.to, req.body.body, Date.now()] });
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return reply.status(201).send({ id, status: 'queued' });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address();
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${port}` })}\n`);
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'stop') {
      await app.close();
      await pool.end();
      process.exit(0);
    }
    if (line === 'cpu') process.stdout.write(`${JSON.stringify(cpuMicros())}\n`);
  });
}

/**
 * In the child: starts the service; `commands(svc)` gives the named commands the parent may send
 * (`name arg` on a line → the command's JSON-able result on a line). `stop` closes and exits.
 */
export async function serveChild(commands) {
  const dist = (file) => pathToFileURL(join(process.argv[4] ?? OWN_ROOT, 'dist', file)).href;
  const { startService } = await import(dist('server/main.js'));
  // BENCH_SERVE_STORE: a postgres:// URL, with the pool at BENCH_POOL_SIZE (default: the service's 10).
  const store = process.env.BENCH_SERVE_STORE ? { store: process.env.BENCH_SERVE_STORE, ...(process.env.BENCH_POOL_SIZE ? { poolSize: Number(process.env.BENCH_POOL_SIZE) } : {}) } : {};
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir: process.argv[3], clock: 'system', rateLimit: { ratePerSec: 1_000_000, burst: 1_000_000 }, ...store });
  const { setBalance } = await import(dist('server/domain/billing/wallet.js'));
  const accountId = svc.joined ? undefined : svc.bootstrap.accountId;
  // A build with the storage seam reaches repositories through transactions; a baseline
  // build from before it, through the deps synchronously. The bench speaks to both.
  const seam = typeof svc.deps.uow.write === 'function';
  const own = {
    // A wallet deep enough for live traffic (through setBalance: the ledger still sums to it), and a limit to match.
    fund: async (cents) => {
      if (seam) {
        await svc.deps.uow.write(async (tx) => {
          await setBalance(tx, accountId, Number(cents));
          await tx.wallets.update(accountId, { spendLimitCents: 100_000_000, updatedAt: Date.now() });
        });
        return svc.deps.uow.read(async (r) => ({ balance: (await r.wallets.get(accountId)).balanceCents, ledgerSum: await r.ledger.sum(accountId) }));
      }
      svc.deps.uow.transaction(() => setBalance(svc.deps, accountId, Number(cents)));
      svc.deps.wallets.update(accountId, { spendLimitCents: 100_000_000, updatedAt: Date.now() });
      return { balance: svc.deps.wallets.get(accountId).balanceCents, ledgerSum: svc.deps.ledger.sum(accountId) };
    },
    cpu: () => cpuMicros(),
    // The monotonic clock in µs, the one a .cpuprofile's timestamps are on: a phase's window in it.
    now: () => Number(process.hrtime.bigint() / 1000n),
    ...commands(svc),
  };
  // A replica that joined a database another bootstrapped has no keys of its own: the first one's serve it.
  const keys = svc.joined ? {} : { liveKey: svc.bootstrap.liveKey, testKey: svc.bootstrap.testKey };
  process.stdout.write(`${JSON.stringify({ baseUrl: svc.baseUrl, ...keys })}\n`);
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'stop') {
      await svc.close();
      process.exit(0);
    }
    const [name, ...rest] = line.split(' ');
    if (own[name]) process.stdout.write(`${JSON.stringify(await own[name](rest.join(' ')))}\n`);
  });
}

/**
 * In the parent: spawns `file --serve` (or `--floor`) on a temp data dir. `ready` is the child's first line;
 * `ask(line)` sends a command and resolves with its answer; `stop()` stops the child and removes the
 * data dir; `kill()` is for errors and deadlines. `root` runs another checkout's build (its dist/);
 * `flags` are node flags added to BENCH_CHILD_FLAGS; `env` is added to the child's environment
 * (BENCH_SERVE_STORE, BENCH_FLOOR_STORE: a PostgreSQL database for it).
 */
export function spawnServiceChild(file, prefix, mode = '--serve', { root, flags: extraFlags = [], env } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const flags = [...(process.env.BENCH_CHILD_FLAGS ? process.env.BENCH_CHILD_FLAGS.split(' ') : []), ...extraFlags];
  const args = [...flags, file, mode, dataDir, ...(root ? [resolvePath(root)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], ...(env ? { env: { ...process.env, ...env } } : {}) });
  const lines = createInterface({ input: child.stdout });
  // An answer, or the child's exit if it dies first (a build that does not start, a missing dist/).
  const next = () =>
    new Promise((resolve, reject) => {
      const died = (code, signal) => reject(new Error(`${prefix} child exited (${signal ?? code}) before answering`));
      child.once('exit', died);
      lines.once('line', (l) => {
        child.off('exit', died);
        resolve(JSON.parse(l));
      });
    });
  const ready = next();
  return {
    ready,
    ask(line) {
      const answer = next();
      child.stdin.write(`${line}\n`);
      return answer;
    },
    async stop() {
      child.stdin.write('stop\n');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
    kill() {
      child.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A bench's hard stop: after `ms`, says so on stderr, runs `cleanup` (kill children, remove temp
 * dirs) and exits 2, so a stuck run never outlives its budget. Returns a function that disarms it.
 */
export function hardDeadline(name, ms, cleanup = () => undefined) {
  const timer = setTimeout(() => {
    console.error(`${name}: over the ${ms / 1000} s deadline; stopping`);
    cleanup();
    process.exit(2);
  }, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
