import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface TransferCallOptions {
  id: string;
  to: string;
}

export function transferCommand(parent: Command, ctx: CliContext, runF?: RunF<TransferCallOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./transfer.run.js')).runTransferCall(ctx, opts));
  return parent
    .command('transfer')
    .description('Hand a connected call to a softphone device or an external number')
    .argument('<id>', 'call id (call_…)')
    .requiredOption('--to <target>', 'an E.164 number, or one of your softphone devices (dev_…)')
    .addHelpText(
      'after',
      `
Only a call in progress can be transferred; any other call: exit 5 (conflict).

Examples:
  $ svc calls transfer call_HxC5aVo9f9KUCgco8UWG --to +14155550123
  $ svc calls transfer call_HxC5aVo9f9KUCgco8UWG --to dev_QsPrEIJNI9Llw4pbfp1w`,
    )
    .action(async (id: string, flags: { to: string }) => run({ id, to: flags.to }));
}
