import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';

// The sub-account context: stored per profile, sent as Service-Subaccount (contract §3). The
// --subaccount flag and SVC_SUBACCOUNT override it for one command.
export function register(group: Command, ctx: CliContext): void {
  const profileName = async () => ctx.flags.profile ?? ctx.env.SVC_PROFILE ?? (await ctx.store()).current();

  group
    .command('show')
    .description('Show which account commands act as')
    .addHelpText('after', '\nExamples:\n  $ svc context show')
    .action(async () => {
      const settings = await ctx.settings();
      await printOne(ctx, { profile: settings.profileName, subaccount: settings.subaccount ?? null, source: settings.source.subaccount });
    });

  group
    .command('use')
    .description('Act as this sub-account in every command of the current profile')
    .argument('<subaccount-id>', 'a sub-account id of your agency')
    .addHelpText('after', '\nExamples:\n  $ svc context use 5f0c…\n  $ svc numbers list   # now lists the sub-account\'s numbers')
    .action(async (id: string) => {
      // Verify it is a direct child before storing it: a typo would make every later command fail.
      const client = await ctx.client();
      const { getSubaccount } = await import('../../../api/resources/subaccounts.js');
      await getSubaccount(client, id);
      const name = await profileName();
      (await ctx.store()).setSubaccount(name, id);
      notice(ctx, `profile "${name}" now acts as sub-account ${id}`);
    });

  group
    .command('clear')
    .description('Act as the account itself again')
    .addHelpText('after', '\nExamples:\n  $ svc context clear')
    .action(async () => {
      const name = await profileName();
      (await ctx.store()).setSubaccount(name, null);
      notice(ctx, `profile "${name}" acts as the account itself`);
    });
}
