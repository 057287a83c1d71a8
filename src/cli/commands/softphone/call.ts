import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface SoftphoneCallOptions {
  device: string;
  from: string;
  to: string;
}

export function callCommand(parent: Command, ctx: CliContext, runF?: RunF<SoftphoneCallOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./call.run.js')).runSoftphoneCall(ctx, opts));
  return parent
    .command('call')
    .description('Place an outbound call through a softphone device: the device rings and auto-answers, then the callee is dialed')
    .requiredOption('--device <id>', 'the device that places the call (dev_…)')
    .requiredOption('--from <number>', 'one of your voice numbers (id or E.164), shown to the callee')
    .requiredOption('--to <e164>', 'the callee, E.164')
    .addHelpText(
      'after',
      `
Prints the new call (direction outbound). Follow it with svc calls get <id>; while it is
in_progress it can be handed on with svc calls transfer.

Examples:
  $ svc softphone call --device dev_QsPrEIJNI9Llw4pbfp1w --from +14155550100 --to +14155550123
  $ svc softphone call --device dev_QsPrEIJNI9Llw4pbfp1w --from +14155550100 --to +14155550123 -o ids`,
    )
    .action(async (flags: SoftphoneCallOptions) => run({ device: flags.device, from: flags.from, to: flags.to }));
}
