import { describeSubaccount, type CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { getSubaccount } from '../../../api/resources/subaccounts.js';

const profileName = async (ctx: CliContext) => ctx.flags.profile ?? ctx.env.SVC_PROFILE ?? (await ctx.store()).current();

export async function runShow(ctx: CliContext): Promise<void> {
  ctx.quietSubaccount = true;
  const settings = await ctx.settings();
  // The name comes from the service (people know their clients by name); without one, the id.
  let name: string | null = null;
  if (settings.subaccount) {
    await ctx.client();
    name = (await ctx.actingAs())?.name ?? null;
  }
  await printOne(ctx, { profile: settings.profileName, subaccount: settings.subaccount ?? null, name, source: settings.source.subaccount });
}

export async function runUse(ctx: CliContext, opts: { subaccountId: string }): Promise<void> {
  ctx.quietSubaccount = true;
  // Verify it is a direct child before storing it: a typo would make every later command fail.
  const client = await ctx.client();
  const sub = await getSubaccount(client, opts.subaccountId);
  const name = await profileName(ctx);
  (await ctx.store()).setSubaccount(name, opts.subaccountId);
  notice(ctx, `profile "${name}" now acts as ${describeSubaccount({ id: sub.id, name: sub.name })}`);
}

export async function runClear(ctx: CliContext): Promise<void> {
  ctx.quietSubaccount = true;
  const name = await profileName(ctx);
  (await ctx.store()).setSubaccount(name, null);
  notice(ctx, `profile "${name}" acts as the account itself`);
}
