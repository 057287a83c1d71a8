import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface AddBlockedOptions {
  phoneNumber: string;
  reason?: string;
}

export function addCommand(parent: Command, ctx: CliContext, runF?: RunF<AddBlockedOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./add.run.js')).runAddBlocked(ctx, opts));
  return parent
    .command('add')
    .description('Block a caller: inbound calls from the number are rejected before anything rings')
    .argument('<phone-number>', 'the caller to block, E.164')
    .option('--reason <text>', 'why, for the people reading the list')
    .addHelpText('after', '\nA number already on the list: exit 5 (conflict).\n\nExamples:\n  $ svc blocked-numbers add +14155550199 --reason "robocaller"\n  $ svc blocked-numbers add +14155550199 -o json')
    .action(async (phoneNumber: string, flags: { reason?: string }) => run({ phoneNumber, reason: flags.reason }));
}
