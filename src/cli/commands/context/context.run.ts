import { describeSubaccount, type CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { getSubaccount, subaccountList } from '../../../api/resources/subaccounts.js';
import type { Subaccount } from '../../../api/schemas/subaccounts.js';
import { listPages } from '../../../api/resources/list.js';
import type { ApiClient } from '../../../api/client/client.js';
import { UsageError } from '../../errors.js';

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

/** Sub-account ids are their tenant uuid (contract §2): anything else is taken as a name. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The sub-account `given` names: its id, or its name when exactly one of the agency's sub-accounts
 * has it (people know their clients by name, as they know their profiles).
 */
async function findSubaccount(client: ApiClient, given: string): Promise<Subaccount> {
  if (UUID.test(given)) return await getSubaccount(client, given);
  const wanted = given.trim().toLowerCase();
  const named: Subaccount[] = [];
  for await (const page of listPages(client, subaccountList, { limit: 100 })) named.push(...page.data.filter((s) => s.name.trim().toLowerCase() === wanted));
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new UsageError(`${named.length} sub-accounts are named "${given}" (${named.map((s) => s.id).join(', ')}): give the id`, '<subaccount-id>');
  throw new UsageError(`no sub-account of this agency is named "${given}"; \`svc subaccounts list\` shows their names and ids`, '<subaccount-id>');
}

export async function runUse(ctx: CliContext, opts: { subaccountId: string }): Promise<void> {
  ctx.quietSubaccount = true;
  // Verify it is a direct child before storing it: a typo would make every later command fail.
  const client = await ctx.client();
  const sub = await findSubaccount(client, opts.subaccountId);
  const name = await profileName(ctx);
  (await ctx.store()).setSubaccount(name, sub.id);
  notice(ctx, `profile "${name}" now acts as ${describeSubaccount({ id: sub.id, name: sub.name })}`);
}

export async function runClear(ctx: CliContext): Promise<void> {
  ctx.quietSubaccount = true;
  const name = await profileName(ctx);
  (await ctx.store()).setSubaccount(name, null);
  notice(ctx, `profile "${name}" acts as the account itself`);
}
