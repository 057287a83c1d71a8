import type { CliContext } from '../../context.js';
import { notice, type ListFlags } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { runList } from '../../run-list.js';
import { createSubaccount, getSubaccount, subaccountList, updateSubaccount } from '../../../api/resources/subaccounts.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'name', 'status', 'createdAt'];

export async function runCreate(ctx: CliContext, opts: { name: string }): Promise<void> {
  await printOne(ctx, await createSubaccount(await ctx.client(), { name: opts.name }), COLUMNS);
}

export async function runListSubaccounts(ctx: CliContext, flags: ListFlags): Promise<void> {
  await runList(ctx, flags, { endpoint: subaccountList, noun: 'sub-accounts', columns: COLUMNS });
}

export async function runGet(ctx: CliContext, opts: { id: string }): Promise<void> {
  await printOne(ctx, await getSubaccount(await ctx.client(), opts.id), COLUMNS);
}

export async function runUpdate(ctx: CliContext, opts: { id: string; name?: string }): Promise<void> {
  if (!opts.name) throw new UsageError('nothing to update: pass --name', '--name');
  await printOne(ctx, await updateSubaccount(await ctx.client(), opts.id, { name: opts.name }), COLUMNS);
}

export async function runSuspend(ctx: CliContext, opts: { id: string }): Promise<void> {
  await ctx.confirm(`Suspend sub-account ${opts.id}? Every request made as it will be refused.`);
  await printOne(ctx, await updateSubaccount(await ctx.client(), opts.id, { status: 'suspended' }), COLUMNS);
  notice(ctx, `suspended ${opts.id}`);
}

export async function runResume(ctx: CliContext, opts: { id: string }): Promise<void> {
  await printOne(ctx, await updateSubaccount(await ctx.client(), opts.id, { status: 'active' }), COLUMNS);
}
