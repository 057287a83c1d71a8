import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { numberRef } from '../../phone-numbers.js';
import { releaseNumber } from '../../../api/resources/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import type { NumberArg as ReleaseNumberOptions } from './options.js';

export async function runRelease(ctx: CliContext, opts: ReleaseNumberOptions): Promise<void> {
  const ref = numberRef(opts.number);
  await ctx.confirm(`Release ${ref}? It goes back to the carrier and stops sending and receiving at once.`);
  const released = await releaseNumber(await ctx.client(), ref);
  await printOne(ctx, released, NUMBER_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `released ${released.phoneNumber}`);
}
