import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface CheckPortsOptions {
  numbers: string[];
}

export function checkCommand(parent: Command, ctx: CliContext, runF?: RunF<CheckPortsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runCheckPorts(ctx, opts));
  return parent
    .command('check')
    .description('Check whether numbers can be ported in, and why not')
    .argument('<numbers...>', 'E.164 numbers')
    .addHelpText('after', '\nExamples:\n  $ svc ports check +14155550123 +14155550124')
    .action(async (numbers: string[]) => run({ numbers }));
}
