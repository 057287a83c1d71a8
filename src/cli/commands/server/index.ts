import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { Option } from '../../commander.js';
import { CLOCK_MODES } from '../../../api/values/sandbox.js';

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
  /** False in a detached child: its output is the log file, and keys never go to a log. */
  printKeys: boolean;
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
    .addOption(new Option('--detached-child', 'started by --detach: the parent prints the bootstrap keys').hideHelp())
    .addHelpText('after', '\nExamples:\n  $ svc server start\n  $ svc server start --port 0 --clock manual --data /tmp/svc-demo\n  $ svc server start --detach')
    .action(async (o: { host: string; port: string; data?: string; clock: 'system' | 'manual'; detach?: boolean; rateLimit?: string; log?: boolean; detachedChild?: boolean }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0-65535', '--port');
      const rateLimit = o.rateLimit === undefined ? undefined : Number(o.rateLimit);
      if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 1)) throw new UsageError('--rate-limit must be a positive whole number', '--rate-limit');
      await (await import('./start.run.js')).runStart(ctx, { host: o.host, port, dataDir: o.data ?? ctx.dataDir, clock: o.clock, detach: Boolean(o.detach), log: Boolean(o.log), rateLimit, printKeys: !o.detachedChild });
    });

  group
    .command('stop')
    .description('Stop the local service started for this data directory')
    .addHelpText('after', '\nExamples:\n  $ svc server stop\n  $ svc server stop --data /tmp/svc-demo')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .action(async (o: { data?: string }) => (await verbs()).runStop(ctx, o.data ?? ctx.dataDir));

  group
    .command('status')
    .description('Say whether the local service is running, where, and with which data')
    .addHelpText('after', '\nExamples:\n  $ svc server status\n  $ svc server status -o json')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .action(async (o: { data?: string }) => (await verbs()).runStatus(ctx, o.data ?? ctx.dataDir));
}
