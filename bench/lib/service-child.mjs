// The local service in a child process for a benchmark, so the load generator does not share its
// event loop: the bench file re-runs itself with `--serve DATA_DIR`; the child starts the BUILT
// service (npm run build first) on 127.0.0.1:0 with the system clock and a rate limit high enough
// not to interfere, prints one JSON line (its address and keys, plus what the bench adds), then
// answers commands, one JSON line each, until `stop`. BENCH_CHILD_FLAGS passes node flags to the
// child (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const isServeChild = () => process.argv[2] === '--serve';

/**
 * In the child: starts the service; `commands(svc)` gives the named commands the parent may send
 * (`name arg` on a line → the command's JSON-able result on a line). `stop` closes and exits.
 */
export async function serveChild(commands) {
  const { startService } = await import('../../dist/server/main.js');
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir: process.argv[3], clock: 'system', rateLimit: { ratePerSec: 1_000_000, burst: 1_000_000 } });
  const { setBalance } = await import('../../dist/server/domain/billing/wallet.js');
  const accountId = svc.bootstrap.accountId;
  const own = {
    // A wallet deep enough for live traffic (through setBalance: the ledger still sums to it), and a limit to match.
    fund: (cents) => {
      svc.deps.uow.transaction(() => setBalance(svc.deps, accountId, Number(cents)));
      svc.deps.wallets.update(accountId, { spendLimitCents: 100_000_000, updatedAt: Date.now() });
      return { balance: svc.deps.wallets.get(accountId).balanceCents, ledgerSum: svc.deps.ledger.sum(accountId) };
    },
    ...commands(svc),
  };
  process.stdout.write(`${JSON.stringify({ baseUrl: svc.baseUrl, liveKey: svc.bootstrap.liveKey, testKey: svc.bootstrap.testKey })}\n`);
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
 * In the parent: spawns `file --serve` on a temp data dir. `ready` is the child's first line;
 * `ask(line)` sends a command and resolves with its answer; `stop()` stops the child and removes the
 * data dir; `kill()` is for errors and deadlines.
 */
export function spawnServiceChild(file, prefix) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const flags = process.env.BENCH_CHILD_FLAGS ? process.env.BENCH_CHILD_FLAGS.split(' ') : [];
  const child = spawn(process.execPath, [...flags, file, '--serve', dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise((resolve) => lines.once('line', (l) => resolve(JSON.parse(l))));
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
