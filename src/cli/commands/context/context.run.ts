import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { getSubaccount } from '../../../api/resources/subaccounts.js';

const profileName = async (ctx: CliContext) => ctx.flags.profile ?? ctx.env.SVC_PROFILE ?? (await ctx.store()).current();

export async function runShow(ctx: CliContext): Promise<void> {
  const settings = await ctx.settings();
  await printOne(ctx, { profile: settings.profileName, subaccount: settings.subaccount ?? null, source: settings.source.subaccount });
}

export async function runUse(ctx: CliContext, opts: { id: string }): Promise<void> {
  // Verify it is a direct child before storing it: a typo would make every later command fail.
  const client = await ctx.client();
  await getSubaccount(client, opts.id);
  const name = await profileName(ctx);
  (await ctx.store()).setSubaccount(name, opts.id);
  notice(ctx, `profile "${name}" now acts as sub-account ${opts.id}`);
}

export async function runClear(ctx: CliContext): Promise<void> {
  const name = await profileName(ctx);
  (await ctx.store()).setSubaccount(name, null);
  notice(ctx, `profile "${name}" acts as the account itself`);
}
