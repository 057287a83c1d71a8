// The BUILT local service (dist/, `npm run build` first) as a real child process, for proofs that
// must kill it (the crash proof sends SIGKILL mid-burst). Run as
// `node service-process.mjs DATA_DIR [system|manual]`: it starts the service on 127.0.0.1, port 0,
// with the system clock (or the manual one: the crash proof kills it mid-advance), and prints one JSON
// line (its address and keys) once it listens. Webhook delivery can only reach loopback (a name table instead of DNS, a loopback-only destination guard), so a bug cannot
// send traffic off the machine. The rate limit is raised out of the way: the proof is about
// durability, not throttling. There is no clean stop on purpose: the parent kills it.
// A replica killed mid-delivery: SVC_CHILD_STORE is a postgres:// database to share,
// SVC_CHILD_LEASE_MS a short claim lease and SVC_CHILD_ACK_MS the webhook ack timeout.
import { startService } from '../../dist/server/main.js';
import { staticResolver } from '../../dist/server/webhooks/resolver.js';

const dataDir = process.argv[2];
const clock = process.argv[3] ?? 'system';
if (!dataDir || (clock !== 'system' && clock !== 'manual')) {
  process.stderr.write('usage: service-process.mjs DATA_DIR [system|manual]\n');
  process.exit(2);
}
const isLoopback = (address) => address.startsWith('127.') || address === '::1';
const svc = await startService({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  clock,
  rateLimit: { ratePerSec: 1_000_000, burst: 1_000_000 },
  webhooks: {
    resolver: staticResolver({ localhost: '127.0.0.1' }),
    destinationGuard: isLoopback,
    ...(process.env.SVC_CHILD_ACK_MS ? { ackTimeoutMs: Number(process.env.SVC_CHILD_ACK_MS) } : {}),
  },
  ...(process.env.SVC_CHILD_STORE ? { store: process.env.SVC_CHILD_STORE } : {}),
  ...(process.env.SVC_CHILD_LEASE_MS ? { claimLeaseMs: Number(process.env.SVC_CHILD_LEASE_MS) } : {}),
});
process.stdout.write(`${JSON.stringify({ baseUrl: svc.baseUrl, liveKey: svc.bootstrap.liveKey, testKey: svc.bootstrap.testKey, pid: process.pid })}\n`);
