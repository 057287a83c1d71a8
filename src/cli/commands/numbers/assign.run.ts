import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { numberRef } from '../../phone-numbers.js';
import { assignNumber } from '../../../api/resources/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import type { AssignOptions } from './options.js';

export async function runAssign(ctx: CliContext, opts: AssignOptions): Promise<void> {
  if (opts.campaign !== undefined && opts.detach) throw new UsageError('give --campaign or --detach, not both', '--detach');
  if (opts.campaign === undefined && !opts.detach) throw new UsageError('give --campaign ID to attach, or --detach', '--campaign');
  if (opts.campaign !== undefined && opts.campaign.trim() === '') throw new UsageError('--campaign: empty campaign id', '--campaign');
  const number = await assignNumber(await ctx.client(), numberRef(opts.number), opts.detach ? null : opts.campaign!.trim());
  await printOne(ctx, number, NUMBER_COLUMNS);
}
