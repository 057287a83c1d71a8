import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetCallOptions {
  id: string;
  trace: boolean;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetCallOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGetCall(ctx, opts));
  return parent
    .command('get')
    .description('Show one call; with --trace, every decision the call engine took')
    .argument('<id>', 'call id (call_…)')
    .option('--trace', 'one line per step: time, step, detail (blocklist, decision webhook, IVR, legs, answer, voicemail, events)', false)
    .addHelpText(
      'after',
      `
With --trace and -o json or yaml: the call with its trace in "trace"; -o csv: the steps as rows.

Examples:
  $ svc calls get call_HxC5aVo9f9KUCgco8UWG
  $ svc calls get call_HxC5aVo9f9KUCgco8UWG --trace
  $ svc calls get call_HxC5aVo9f9KUCgco8UWG --trace -o json`,
    )
    .action(async (id: string, flags: { trace: boolean }) => run({ id, trace: flags.trace }));
}
