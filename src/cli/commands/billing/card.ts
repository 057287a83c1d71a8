import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface CardOptions {
  token: string;
}

export function cardCommand(parent: Command, ctx: CliContext, runF?: RunF<CardOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runCard(ctx, opts));
  return parent
    .command('card')
    .description('Save the card that pays top-ups, auto-recharges and the subscription (a payment token)')
    .argument('<token>', 'a card token from the payment provider (sandbox: tok_visa)')
    .addHelpText('after', '\nThe token stands for the card; card numbers never pass through svc.\n\nExamples:\n  $ svc billing card tok_visa')
    .action(async (token: string) => run({ token }));
}
