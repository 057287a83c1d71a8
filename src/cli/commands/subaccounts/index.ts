import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, notice, printOne, runList, type ListFlags } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
const resources = () => import('../../../api/resources/subaccounts.js');

const COLUMNS = ['id', 'name', 'status', 'createdAt'];

export function register(group: Command, ctx: CliContext): void {
  group
    .command('create')
    .description('Create a sub-account (agency keys only)')
    .requiredOption('--name <name>', 'display name')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts create --name "Acme Dental"\n  $ svc subaccounts create --name Acme -o ids')
    .action(async (o: { name: string }) => printOne(ctx, await (await resources()).createSubaccount(await ctx.client(), { name: o.name }), COLUMNS));

  addListOptions(group.command('list').description('List sub-accounts'))
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts list --all -o csv')
    .action(async (o: ListFlags) => runList(ctx, o, { path: '/v1/subaccounts', noun: 'sub-accounts', columns: COLUMNS, agencyLevel: true }));

  group
    .command('get')
    .description('Show a sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts get 5f0c2d9e-…')
    .argument('<id>', 'sub-account id')
    .action(async (id: string) => printOne(ctx, await (await resources()).getSubaccount(await ctx.client(), id), COLUMNS));

  group
    .command('update')
    .description('Rename a sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts update 5f0c2d9e-… --name "Acme Dental West"')
    .argument('<id>', 'sub-account id')
    .option('--name <name>', 'new name')
    .action(async (id: string, o: { name?: string }) => {
      if (!o.name) throw new UsageError('nothing to update: pass --name', '--name');
      await printOne(ctx, await (await resources()).updateSubaccount(await ctx.client(), id, { name: o.name }), COLUMNS);
    });

  group
    .command('suspend')
    .description('Suspend a sub-account: its requests get 403 until resumed')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts suspend 5f0c2d9e-… --yes')
    .argument('<id>', 'sub-account id')
    .action(async (id: string) => {
      await ctx.confirm(`Suspend sub-account ${id}? Every request made as it will be refused.`);
      await printOne(ctx, await (await resources()).updateSubaccount(await ctx.client(), id, { status: 'suspended' }), COLUMNS);
      notice(ctx, `suspended ${id}`);
    });

  group
    .command('resume')
    .description('Resume a suspended sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc subaccounts resume 5f0c2d9e-…')
    .argument('<id>', 'sub-account id')
    .action(async (id: string) => printOne(ctx, await (await resources()).updateSubaccount(await ctx.client(), id, { status: 'active' }), COLUMNS));
}
