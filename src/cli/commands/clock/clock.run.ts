import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { advanceClock, getClock } from '../../../api/resources/sandbox.js';

export async function runShow(ctx: CliContext): Promise<void> {
  await printOne(ctx, await getClock(await ctx.client()));
}

export async function runAdvance(ctx: CliContext, opts: { seconds: number }): Promise<void> {
  await printOne(ctx, await advanceClock(await ctx.client(), opts.seconds));
}
