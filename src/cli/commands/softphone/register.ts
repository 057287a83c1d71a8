import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface RegisterDeviceOptions {
  user: string;
  label: string;
}

export function registerCommand(parent: Command, ctx: CliContext, runF?: RunF<RegisterDeviceOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./register.run.js')).runRegisterDevice(ctx, opts));
  return parent
    .command('register')
    .description('Register a softphone device for one of your users (the same user and label give the same device)')
    .requiredOption('--user <id>', 'your user the device belongs to')
    .requiredOption('--label <label>', 'a name unique per user, e.g. "Front desk"')
    .addHelpText('after', '\nExamples:\n  $ svc softphone devices register --user u_42 --label "Front desk"\n  $ svc softphone devices register --user u_42 --label laptop -o ids')
    .action(async (flags: RegisterDeviceOptions) => run({ user: flags.user, label: flags.label }));
}
