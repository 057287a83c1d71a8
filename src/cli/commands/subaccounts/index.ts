import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags } from '../../command-kit.js';
import { UsageError } from '../../errors.js';

// Six one-line verbs over one resource: their run functions share subaccounts.run.ts, loaded when
// one of them runs.
const verbs = () => import('./subaccounts.run.js');

export function register(group: Command, ctx: CliContext): void {
  group
    .command('create')
    .description('Create a sub-account (agency keys only)')
    .requiredOption('--name <name>', 'display name')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts create --name "Acme Dental"\n  $ svc subaccounts create --name Acme -o ids')
    .action(async (o: { name: string }) => (await verbs()).runCreate(ctx, { name: o.name }));

  addListOptions(group.command('list').description('List sub-accounts'))
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts list --all -o csv')
    .action(async (o: ListFlags) => (await verbs()).runListSubaccounts(ctx, o));

  group
    .command('get')
    .description('Show a sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts get 5f0c2d9e-…')
    .argument('<id>', 'sub-account id')
    .action(async (id: string) => (await verbs()).runGet(ctx, { id }));

  group
    .command('update')
    .description('Rename a sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts update 5f0c2d9e-… --name "Acme Dental West"')
    .argument('<id>', 'sub-account id')
    .option('--name <name>', 'new name')
    .action(async (id: string, o: { name?: string }) => {
      if (!o.name) throw new UsageError('nothing to update: pass --name', '--name');
      await (await verbs()).runUpdate(ctx, { id, name: o.name });
    });

  group
    .command('suspend')
    .description('Suspend a sub-account: its requests get 403 until resumed')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts suspend 5f0c2d9e-… --yes')
    .argument('<id>', 'sub-account id')
    .action(async (id: string) => (await verbs()).runSuspend(ctx, { id }));

  group
    .command('resume')
    .description('Resume a suspended sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts resume 5f0c2d9e-…')
    .argument('<id>', 'sub-account id')
    .action(async (id: string) => (await verbs()).runResume(ctx, { id }));
}
