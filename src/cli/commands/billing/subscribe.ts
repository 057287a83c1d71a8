import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { Argument } from '../../commander.js';
import { PLAN_NAMES, type Plan } from '../../../api/values/billing.js';

export interface SubscribeOptions {
  plan: Plan;
}

export function subscribeCommand(parent: Command, ctx: CliContext, runF?: RunF<SubscribeOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runSubscribe(ctx, opts));
  return parent
    .command('subscribe')
    .description('Subscribe to a plan, or change plan (the price is shown and confirmed)')
    .addArgument(new Argument('<plan>', 'the plan').choices(PLAN_NAMES))
    .addHelpText(
      'after',
      `
A paid plan is charged to the saved card each 30-day period (svc billing card <token>).

Examples:
  $ svc billing subscribe starter
  $ svc billing subscribe pro --yes`,
    )
    .action(async (plan: Plan) => run({ plan }));
}
