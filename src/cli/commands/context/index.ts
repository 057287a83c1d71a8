import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

// The sub-account context: stored per profile, sent as Service-Subaccount (contract §3). The
// --subaccount flag and SVC_SUBACCOUNT override it for one command.
const verbs = () => import('./context.run.js');

export function register(group: Command, ctx: CliContext): void {
  group
    .command('show')
    .description('Show which account commands act as')
    .addHelpText('after', '\nExamples:\n  $ svc context show')
    .action(async () => (await verbs()).runShow(ctx));

  group
    .command('use')
    .description('Act as this sub-account in every command of the current profile')
    .argument('<subaccount-id>', 'a sub-account id of your agency')
    .addHelpText('after', '\nExamples:\n  $ svc context use 5f0c…\n  $ svc numbers list   # now lists the sub-account\'s numbers')
    .action(async (id: string) => (await verbs()).runUse(ctx, { id }));

  group
    .command('clear')
    .description('Act as the account itself again')
    .addHelpText('after', '\nExamples:\n  $ svc context clear')
    .action(async () => (await verbs()).runClear(ctx));
}
