import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { numberRef } from '../../phone-numbers.js';
import { getNumber } from '../../../api/resources/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import type { NumberArg as GetNumberOptions } from './options.js';

export async function runGet(ctx: CliContext, opts: GetNumberOptions): Promise<void> {
  await printOne(ctx, await getNumber(await ctx.client(), numberRef(opts.number)), NUMBER_COLUMNS);
}
