import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { ENTRY_ARG } from './columns.js';

export interface GetBlockedOptions {
  entry: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetBlockedOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGetBlocked(ctx, opts));
  return parent
    .command('get')
    .description('Show one blocklist entry: how many calls it rejected and when last')
    .argument(...ENTRY_ARG)
    .addHelpText('after', '\nExamples:\n  $ svc blocked-numbers get +14155550199\n  $ svc blocked-numbers get 0b6f…-… -o json')
    .action(async (entry: string) => run({ entry }));
}
