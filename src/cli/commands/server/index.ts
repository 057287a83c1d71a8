import { defineVerb } from '../../verb.js';
import { CLOCK_MODES } from '../../../api/values/sandbox.js';
import { SERVICE_ROLES } from '../../../api/values/local-service.js';

// svc server: the local service. `start` runs it in this process (fastify, SQLite); stop and status
// only look for it; the snapshot verbs and reset work on its files. Every flag is checked
// and turned into its run module's options in verbs.run.ts, loaded when a verb runs.
const load = () => import('./verbs.run.js');
const DATA_FLAG = { flags: '--data <dir>', help: 'data directory (env SVC_DATA_DIR)', local: {} } as const;
const SNAPSHOT_NAME = { name: 'name', help: 'snapshot name (letters, digits, ".", "_", "-"), or a path to a .db file' } as const;

export const subgroups = { snapshot: 'Save, load, list and remove snapshots of the local service (DATA/snapshots/NAME.db)' };

export const verbs = [
  defineVerb({
    name: 'start',
    local: true,
    summary: 'Start the local service (foreground unless --detach)',
    flags: [
      { flags: '--host <host>', help: 'interface to listen on', default: '127.0.0.1' },
      { flags: '--port <port>', help: 'port (0 picks a free one and prints it)', default: '4010', json: 'integer' },
      DATA_FLAG,
      { flags: '--clock <mode>', help: 'system, or manual: frozen until `svc clock advance`', choices: CLOCK_MODES, default: 'system' },
      { flags: '--detach', help: 'run in the background; logs go to DATA/server.log' },
      { flags: '--rate-limit <n>', help: 'requests per second per key (burst is twice this)', json: 'integer' },
      { flags: '--log', help: 'log requests as JSON lines on stdout' },
      { flags: '--store <url>', help: 'postgres://user@host:port/db: keep the data in PostgreSQL, shared by every replica started on it (env SVC_STORE; default: SQLite in the data directory)' },
      { flags: '--pool-size <n>', help: 'with --store: PostgreSQL connections this process may open (default 10)', json: 'integer' },
      { flags: '--role <role>', help: 'what this process runs: api (HTTP only), worker (the jobs and webhook deliveries, no HTTP) or all (env SVC_ROLE; default all)', choices: SERVICE_ROLES },
      { flags: '--chaos <file>', help: 'seeded faults of the simulated world: a profile file (YAML: seed, faults per kind with rate and delays), stored as the service-wide profile', local: {} },
      { flags: '--detached-child', help: 'started by --detach: the parent prints the bootstrap keys', hidden: true },
    ],
    examples: [
      'svc server start',
      'svc server start --port 0 --clock manual --data /tmp/svc-demo',
      'svc server start --detach',
      'svc server start --clock manual --chaos chaos.yaml',
      'svc server start --store postgres://svc@127.0.0.1:5432/svc --port 4011 --data /tmp/svc-replica-1',
      'svc server start --detach --role api && svc server start --detach --role worker',
    ],
    changes: true,
    // In the foreground it runs until stopped; the service is the agent's to use, not to start.
    terminal: true,
    run: async () => (await load()).runStartFlags,
  }),
  defineVerb({
    name: 'stop',
    local: true,
    summary: 'Stop the local service started for this data directory',
    flags: [DATA_FLAG, { flags: '--role <role>', help: 'stop only the process serving the API (api) or running the worker (worker); default all of them', choices: SERVICE_ROLES }],
    examples: ['svc server stop', 'svc server stop --data /tmp/svc-demo', 'svc server stop --role worker'],
    changes: true,
    // Stopping the service an agent talks to ends its session: people only.
    terminal: true,
    run: async () => (await load()).runStopFlags,
  }),
  defineVerb({
    name: 'status',
    local: true,
    summary: 'Say whether the local service is running, where, and with which data',
    flags: [DATA_FLAG],
    examples: ['svc server status', 'svc server status -o json'],
    run: async () => (await load()).runStatusFlags,
  }),
  defineVerb({
    name: 'snapshot save',
    local: true,
    summary: 'Save a consistent copy of the data (messages, jobs, deliveries, the clock, media), running or stopped',
    args: [SNAPSHOT_NAME],
    flags: [DATA_FLAG],
    details: `The copy is SQLite's online backup: the service keeps answering while it is taken. A snapshot of
the same name is replaced. A NAME goes to DATA/snapshots/NAME.db (media in NAME.media/); a path ending
in .db (or holding a /) is written there instead: commit it next to your tests and load it in CI.`,
    examples: ['svc server snapshot save before-demo', 'svc server snapshot save ./test/seed.db'],
    changes: true,
    run: async () => (await load()).runSnapshotSaveFlags,
  }),
  defineVerb({
    name: 'snapshot load',
    local: true,
    summary: 'Replace the data with a snapshot; a running service is stopped and started again',
    args: [{ name: 'name', help: 'a snapshot saved in DATA/snapshots, or a path to a .db file' }],
    flags: [DATA_FLAG, { flags: '--trust-snapshot', help: "keep the snapshot's own API keys and webhook endpoints as they are (a snapshot you trust)" }],
    details: `The service then answers as it did when the snapshot was saved: same data, same clock, the same
pending jobs and deliveries. The bootstrap keys of this data directory (bootstrap.json) stay valid,
so the CLI's profile works unchanged, even with a snapshot saved on another machine. A snapshot of
another schema version is refused (exit 5) and nothing changes; so is a file that is not exactly an
svc database (a trigger, a view, a changed table) or whose media folder holds anything but regular
files (exit 2).

The snapshot's API keys that this data directory does not already have are revoked, and its webhook
endpoints to hosts other than this machine that no current endpoint sends to are disabled: a file from
someone else cannot open your service to them or send your events to them. --trust-snapshot keeps
both as they are, for a snapshot you or your team made.`,
    examples: ['svc server snapshot load before-demo', 'svc server snapshot load ./test/seed.db', 'svc server snapshot load ./test/seed.db --trust-snapshot'],
    changes: true,
    // It restarts the service an agent talks to: people only.
    terminal: true,
    run: async () => (await load()).runSnapshotLoadFlags,
  }),
  defineVerb({
    name: 'snapshot list',
    local: true,
    summary: 'List the snapshots: name, size, when saved, schema version',
    flags: [DATA_FLAG],
    examples: ['svc server snapshot list', 'svc server snapshot list -o json'],
    run: async () => (await load()).runSnapshotListFlags,
  }),
  defineVerb({
    name: 'snapshot remove',
    local: true,
    summary: 'Delete a snapshot',
    args: [{ name: 'name', help: 'a snapshot saved in DATA/snapshots' }],
    flags: [DATA_FLAG],
    examples: ['svc server snapshot remove before-demo'],
    changes: true,
    run: async () => (await load()).runSnapshotRemoveFlags,
  }),
  defineVerb({
    name: 'reset',
    local: true,
    summary: 'Start over with an empty database, keeping the bootstrap keys; a running service is restarted',
    flags: [{ flags: '--keep-keys', help: "keep every account and API key too (sub-accounts' keys stay valid)" }, DATA_FLAG],
    details: `Everything else goes: messages, numbers, webhooks, jobs, media, the clock. The bootstrap account and
its keys (bootstrap.json) are ALWAYS kept, so the CLI's profile keeps working; --keep-keys keeps
every other account and key as well (with fresh wallets). Save a snapshot first to come back.`,
    examples: ['svc server reset', 'svc server reset --keep-keys'],
    changes: true,
    // It wipes and restarts the service an agent talks to: people only.
    terminal: true,
    run: async () => (await load()).runResetFlags,
  }),
];
