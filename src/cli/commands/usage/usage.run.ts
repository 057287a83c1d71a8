import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { dollars } from '../../money.js';
import { printList, printResource, resolveFormat } from '../../../output/formatters.js';
import { getBilling, getUsage } from '../../../api/resources/billing.js';
import type { Usage } from '../../../api/schemas/billing.js';
import { resolveWhen, usageOptionsOf, type UsageFlags, type When } from './when.js';

const isRelative = (w: When | undefined): boolean => w !== undefined && 'agoSecs' in w;

export async function runUsage(ctx: CliContext, flags: UsageFlags): Promise<void> {
  const opts = usageOptionsOf(flags);
  const client = await ctx.client();
  // A relative time counts back from the service clock (it may have been advanced): one cheap read
  // first teaches the client the service's time (Service-Time), sent even under --dry-run.
  if (isRelative(opts.from) || isRelative(opts.to)) await getBilling(await ctx.readClient());
  const now = ctx.serviceNow();
  const from = opts.from && resolveWhen(opts.from, now);
  const to = opts.to && resolveWhen(opts.to, now);
  if (from && to && Date.parse(from) >= Date.parse(to)) throw new UsageError(`--from (${from}) must be before --to (${to})`, '--from');
  const usage = await getUsage(client, { from, to });
  await printUsage(ctx, usage);
}

/** A table by category with a total row in dollars; json/yaml the API's answer; rows in cents otherwise. */
export async function printUsage(ctx: CliContext, usage: Usage): Promise<void> {
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  if (format === 'json' || format === 'yaml') {
    await printResource(ctx.io, usage, { format, now: ctx.serviceNow() });
    return;
  }
  if (format === 'table') {
    const rows: Record<string, string>[] = usage.data.map((r) => ({ category: r.category, quantity: String(r.quantity), amount: dollars(r.amountCents) }));
    rows.push({ category: 'total', quantity: '', amount: dollars(usage.totalCents) });
    await printList(ctx.io, rows, { format: 'table', columns: ['category', 'quantity', 'amount'], now: ctx.serviceNow() });
    ctx.io.stderr.write(`from ${usage.from} to ${usage.to}\n`);
    return;
  }
  await printList(ctx.io, usage.data, { format: ctx.outputFormat, columns: ['category', 'quantity', 'amountCents'], idField: 'category', now: ctx.serviceNow() });
}
