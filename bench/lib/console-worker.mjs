// bench/console's worker process (the console's live pages with roles): the BUILT service as `--role
// worker` on the data directory an API process in the bench opened (SQLite, one file, manual clock).
// It prints one JSON line per event committed here, `{ id, type, at }`, `at` being when this process's
// listeners heard of the commit (they are told after it) on this machine's clock
// (performance.timeOrigin + performance.now(), as the page's MutationObserver reads it). It stops
// when its stdin closes.
import { startService } from '../../dist/server/main.js';

const now = () => performance.timeOrigin + performance.now();
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir: process.argv[2], clock: 'manual', role: 'worker' });
svc.deps.events.subscribe((e) => {
  if ('body' in e) process.stdout.write(`${JSON.stringify({ id: e.id, type: e.type, at: now() })}\n`);
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.stdin.on('end', () => {
  svc.close().then(() => process.exit(0), () => process.exit(1));
});
process.stdin.resume();
