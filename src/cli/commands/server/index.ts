import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, notice } from '../../command-kit.js';
import { UsageError, CliError } from '../../errors.js';
import { Option } from '../../commander.js';

export interface StartServerOptions {
  host: string;
  port: number;
  dataDir: string;
  clock: 'system' | 'manual';
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
    .addOption(enumOption('--clock <mode>', 'system, or manual: frozen until `svc clock advance`', ['system', 'manual']).default('system'))
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
      await runStart(ctx, { host: o.host, port, dataDir: o.data ?? ctx.dataDir, clock: o.clock, detach: Boolean(o.detach), log: Boolean(o.log), rateLimit, printKeys: !o.detachedChild });
    });

  group
    .command('stop')
    .description('Stop the local service started for this data directory')
    .addHelpText('after', '\nExamples:\n  $ svc server stop\n  $ svc server stop --data /tmp/svc-demo')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .action(async (o: { data?: string }) => runStop(ctx, o.data ?? ctx.dataDir));

  group
    .command('status')
    .description('Say whether the local service is running, where, and with which data')
    .addHelpText('after', '\nExamples:\n  $ svc server status\n  $ svc server status -o json')
    .option('--data <dir>', 'data directory (env SVC_DATA_DIR)')
    .action(async (o: { data?: string }) => runStatus(ctx, o.data ?? ctx.dataDir));
}

export async function runStart(ctx: CliContext, opts: StartServerOptions): Promise<void> {
  const local = await import('../../local-service.js');
  const running = local.readPidInfo(opts.dataDir);
  if (running && local.isAlive(running.pid) && (await local.probeHealth(running.baseUrl))) {
    throw new CliError(`the local service is already running at ${running.baseUrl} (pid ${running.pid}); \`svc server stop\` first`);
  }
  if (opts.detach) {
    const started = await local.spawnDetached(ctx, opts);
    ctx.io.stdout.write(`${started.baseUrl}\n`);
    notice(ctx, `local service running in the background (pid ${started.pid}); logs in ${opts.dataDir}/server.log`);
    if (started.bootstrap) notice(ctx, bootstrapNotice(started.bootstrap, opts.dataDir));
    return;
  }
  const { startService } = await import('../../../server/main.js');
  const svc = await startService({
    host: opts.host,
    port: opts.port,
    dataDir: opts.dataDir,
    clock: opts.clock,
    log: opts.log,
    writePidFile: true,
    rateLimit: opts.rateLimit ? { ratePerSec: opts.rateLimit, burst: opts.rateLimit * 2 } : undefined,
  });
  notice(ctx, `svc local service listening on ${svc.baseUrl} (data ${opts.dataDir}, ${opts.clock} clock)`);
  // contract §1: the keys are printed once; bootstrap.json (0600) keeps them for the local profile.
  if (svc.bootstrapCreated && opts.printKeys) notice(ctx, bootstrapNotice(svc.bootstrap, opts.dataDir));
  if (opts.port === 0) ctx.io.stdout.write(`${svc.baseUrl}\n`);
  await (ctx.environment.waitForInterrupt ?? (() => new Promise<void>(() => undefined)))();
  notice(ctx, 'stopping…');
  await svc.close();
}

function bootstrapNotice(b: { accountId: string; liveKey: string; testKey: string }, dataDir: string): string {
  return `agency account ${b.accountId}\n  live key: ${b.liveKey}\n  test key: ${b.testKey}\n  (saved in ${dataDir}/bootstrap.json, mode 0600)`;
}

export async function runStop(ctx: CliContext, dataDir: string): Promise<void> {
  const local = await import('../../local-service.js');
  const info = local.readPidInfo(dataDir);
  // A server.json left by a crash may name a pid the system has since given to another process:
  // signal only a pid whose service still answers at the recorded address.
  if (!info || !local.isAlive(info.pid) || !(await local.probeHealth(info.baseUrl))) {
    if (info) local.removePidInfo(dataDir);
    notice(ctx, 'the local service is not running');
    return;
  }
  local.signal(info.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (local.isAlive(info.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (local.isAlive(info.pid)) throw new CliError(`pid ${info.pid} did not stop within 10 s`);
  notice(ctx, `stopped the local service (pid ${info.pid})`);
}

export async function runStatus(ctx: CliContext, dataDir: string): Promise<void> {
  const local = await import('../../local-service.js');
  const info = local.readPidInfo(dataDir);
  const alive = info ? local.isAlive(info.pid) : false;
  const healthy = info && alive ? await local.probeHealth(info.baseUrl) : false;
  const status = { running: Boolean(healthy), pid: alive ? info!.pid : null, baseUrl: info?.baseUrl ?? null, dataDir, startedAt: alive ? info!.startedAt : null };
  const { printOne } = await import('../../command-kit.js');
  await printOne(ctx, status);
  if (!healthy) {
    const { CliError: E } = await import('../../errors.js');
    throw new E('the local service is not running');
  }
}
