import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { Option } from '../../commander.js';
import { CLOCK_MODES } from '../../../api/values/sandbox.js';
import { SERVICE_ROLES, type ServiceRole } from '../../../api/values/local-service.js';

// `start` runs the service in this process (fastify, SQLite); stop and status only look for it.
const verbs = () => import('./server.run.js');

export interface StartServerOptions {
  host: string;
  port: number;
  dataDir: string;
  clock: (typeof CLOCK_MODES)[number];
  detach: boolean;
  log: boolean;
  rateLimit?: number;
  /** A postgres:// URL (--store, env SVC_STORE); absent: SQLite in the data directory. */
  store?: string;
  /** PostgreSQL connections at most in this process (--pool-size). */
  poolSize?: number;
  /** `--chaos FILE`: a chaos profile (YAML or JSON), read by the run module (issue 29). */
  chaos?: string;
  /** False in a detached child: its output is the log file, and keys never go to a log. */
  printKeys: boolean;
  /** issue 26: `--role api|worker|all` (env SVC_ROLE; default all). */
  role: ServiceRole;
}

export function register(group: Command, ctx: CliContext): void {
  group
    .command('start')
    .description('Start the local service (foreground unless --detach)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one and prints it)', '4010')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .addOption(enumOption('--clock <mode>', 'system, or manual: frozen until `svc clock advance`', CLOCK_MODES).default('system'))
    .option('--detach', 'run in the background; logs go to DATA/server.log')
    .option('--rate-limit <n>', 'requests per second per key (burst is twice this)')
    .option('--log', 'log requests as JSON lines on stdout')
    .option('--store <url>', 'postgres://user@host:port/db: keep the data in PostgreSQL, shared by every replica started on it (env SVC_STORE; default: SQLite in the data directory)')
    .option('--pool-size <n>', 'with --store: PostgreSQL connections this process may open (default 10)')
    .addOption(enumOption('--role <role>', 'what this process runs: api (HTTP only), worker (the jobs and webhook deliveries, no HTTP) or all (env SVC_ROLE; default all)', SERVICE_ROLES))
    .option('--chaos <file>', 'seeded faults of the simulated world: a profile file (YAML: seed, faults per kind with rate and delays)')
    .addOption(new Option('--detached-child', 'started by --detach: the parent prints the bootstrap keys').hideHelp())
    .addHelpText('after', '\nExamples:\n  $ svc server start\n  $ svc server start --port 0 --clock manual --data /tmp/svc-demo\n  $ svc server start --detach\n  $ svc server start --clock manual --chaos chaos.yaml\n  $ svc server start --store postgres://svc@127.0.0.1:5432/svc --port 4011 --data /tmp/svc-replica-1\n  $ svc server start --detach --role api && svc server start --detach --role worker')
    .action(async (o: { host: string; port: string; data?: string; clock: 'system' | 'manual'; detach?: boolean; rateLimit?: string; log?: boolean; store?: string; poolSize?: string; chaos?: string; role?: ServiceRole; detachedChild?: boolean }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0-65535', '--port');
      const rateLimit = o.rateLimit === undefined ? undefined : Number(o.rateLimit);
      if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 1)) throw new UsageError('--rate-limit must be a positive whole number', '--rate-limit');
      const poolSize = o.poolSize === undefined ? undefined : Number(o.poolSize);
      if (poolSize !== undefined && (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000)) throw new UsageError('--pool-size must be a whole number from 1 to 1000', '--pool-size');
      const store = o.store ?? (ctx.env.SVC_STORE || undefined);
      if (poolSize !== undefined && store === undefined) throw new UsageError('--pool-size is for a PostgreSQL store: give --store postgres://… too', '--pool-size');
      const role = o.role ?? (ctx.env.SVC_ROLE || 'all');
      if (!(SERVICE_ROLES as readonly string[]).includes(role)) throw new UsageError(`--role (env SVC_ROLE) must be one of ${SERVICE_ROLES.join(', ')}; got ${role}`, '--role');
      await (await import('./start.run.js')).runStart(ctx, { host: o.host, port, dataDir: o.data ?? ctx.dataDir, clock: o.clock, detach: Boolean(o.detach), log: Boolean(o.log), rateLimit, store, poolSize, ...(o.chaos ? { chaos: o.chaos } : {}), printKeys: !o.detachedChild, role: role as ServiceRole });
    });

  group
    .command('stop')
    .description('Stop the local service started for this data directory')
    .addHelpText('after', '\nExamples:\n  $ svc server stop\n  $ svc server stop --data /tmp/svc-demo\n  $ svc server stop --role worker')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .addOption(enumOption('--role <role>', 'stop only the process serving the API (api) or running the worker (worker); default all of them', SERVICE_ROLES))
    .action(async (o: { data?: string; role?: ServiceRole }) => (await verbs()).runStop(ctx, o.data ?? ctx.dataDir, o.role ?? 'all'));

  group
    .command('status')
    .description('Say whether the local service is running, where, and with which data')
    .addHelpText('after', '\nExamples:\n  $ svc server status\n  $ svc server status -o json')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .action(async (o: { data?: string }) => (await verbs()).runStatus(ctx, o.data ?? ctx.dataDir));

  // issue 15: the state of the local service. Files and SQLite only, so the run module loads
  // better-sqlite3 and the server's storage lazily, as `start` does.
  const state = () => import('./state.run.js');
  const snapshot = group
    .command('snapshot')
    .description('Save, load, list and remove snapshots of the local service (DATA/snapshots/NAME.db)')
    .addHelpText('after', '\nExamples:\n  $ svc server snapshot save before-demo\n  $ svc server snapshot load before-demo\n  $ svc server snapshot list');
  snapshot
    .command('save')
    .argument('<name>', 'snapshot name (letters, digits, ".", "_", "-"), or a path to a .db file')
    .description('Save a consistent copy of the data (messages, jobs, deliveries, the clock, media), running or stopped')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .addHelpText('after', '\nThe copy is SQLite\'s online backup: the service keeps answering while it is taken. A snapshot of\nthe same name is replaced. A NAME goes to DATA/snapshots/NAME.db (media in NAME.media/); a path ending\nin .db (or holding a /) is written there instead: commit it next to your tests and load it in CI.\n\nExamples:\n  $ svc server snapshot save before-demo\n  $ svc server snapshot save ./test/seed.db')
    .action(async (name: string, o: { data?: string }) => (await state()).runSnapshotSave(ctx, { name, dataDir: o.data ?? ctx.dataDir }));
  snapshot
    .command('load')
    .argument('<name>', 'a snapshot saved in DATA/snapshots, or a path to a .db file')
    .description('Replace the data with a snapshot; a running service is stopped and started again')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .option('--trust-snapshot', "keep the snapshot's own API keys and webhook endpoints as they are (a snapshot you trust)")
    .addHelpText('after', '\nThe service then answers as it did when the snapshot was saved: same data, same clock, the same\npending jobs and deliveries. The bootstrap keys of this data directory (bootstrap.json) stay valid,\nso the CLI\'s profile works unchanged, even with a snapshot saved on another machine. A snapshot of\nanother schema version is refused (exit 5) and nothing changes; so is a file that is not exactly an\nsvc database (a trigger, a view, a changed table) or whose media folder holds anything but regular\nfiles (exit 2).\n\nThe snapshot\'s API keys that this data directory does not already have are revoked, and its webhook\nendpoints to hosts other than this machine that no current endpoint sends to are disabled: a file from\nsomeone else cannot open your service to them or send your events to them. --trust-snapshot keeps\nboth as they are, for a snapshot you or your team made.\n\nExamples:\n  $ svc server snapshot load before-demo\n  $ svc server snapshot load ./test/seed.db\n  $ svc server snapshot load ./test/seed.db --trust-snapshot')
    .action(async (name: string, o: { data?: string; trustSnapshot?: boolean }) =>
      (await state()).runSnapshotLoad(ctx, { name, dataDir: o.data ?? ctx.dataDir, trust: Boolean(o.trustSnapshot) }),
    );
  snapshot
    .command('list')
    .description('List the snapshots: name, size, when saved, schema version')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .addHelpText('after', '\nExamples:\n  $ svc server snapshot list\n  $ svc server snapshot list -o json')
    .action(async (o: { data?: string }) => (await state()).runSnapshotList(ctx, o.data ?? ctx.dataDir));
  snapshot
    .command('remove')
    .argument('<name>', 'a snapshot saved in DATA/snapshots')
    .description('Delete a snapshot')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .addHelpText('after', '\nExamples:\n  $ svc server snapshot remove before-demo')
    .action(async (name: string, o: { data?: string }) => (await state()).runSnapshotRemove(ctx, { name, dataDir: o.data ?? ctx.dataDir }));

  group
    .command('reset')
    .description('Start over with an empty database, keeping the bootstrap keys; a running service is restarted')
    .option('--keep-keys', 'keep every account and API key too (sub-accounts\' keys stay valid)')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .addHelpText('after', '\nEverything else goes: messages, numbers, webhooks, jobs, media, the clock. The bootstrap account and\nits keys (bootstrap.json) are ALWAYS kept, so the CLI\'s profile keeps working; --keep-keys keeps\nevery other account and key as well (with fresh wallets). Save a snapshot first to come back.\n\nExamples:\n  $ svc server reset\n  $ svc server reset --keep-keys')
    .action(async (o: { data?: string; keepKeys?: boolean }) => (await state()).runReset(ctx, { dataDir: o.data ?? ctx.dataDir, keepKeys: Boolean(o.keepKeys) }));
}
