import type { Command } from 'commander';
import { Option } from '../../commander.js';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { SIMULATE_DETAILS, SIMULATE_OPTIONS, type SimulateOptions } from './simulate-flags.js';

export type { SimulateOptions } from './simulate-flags.js';

export function simulateCommand(parent: Command, ctx: CliContext, runF?: RunF<SimulateOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./simulate.run.js')).runSimulate(ctx, opts));
  const cmd = parent.command('simulate').description('Sandbox: place an inbound call and watch the call engine run it, step by step');
  for (const o of SIMULATE_OPTIONS) {
    const option = new Option(o.flags, o.description);
    if (o.required) option.makeOptionMandatory();
    cmd.addOption(option);
  }
  return cmd
    .addHelpText(
      'after',
      `
${SIMULATE_DETAILS}

Examples:
  $ svc calls simulate --to +14155550100 --from +14155550123
  $ svc calls simulate --to +14155550100 --from +14155550123 --answer first --after 5s --duration 30s
  $ svc calls simulate --to +14155550100 --from +14155550123 --digits 2 --answer dev_QsPrEIJNI9Llw4pbfp1w --fast-forward
  $ svc calls simulate --to +14155550100 --from +14155550123 --no-wait -o ids`,
    )
    .action(async (o: SimulateOptions) => run(o));
}
