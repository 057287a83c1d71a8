import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { advanceClock, getClock } from '../../../api/resources/sandbox.js';
import { parseDuration } from '../../duration.js';
import { UsageError } from '../../errors.js';

export async function runShow(ctx: CliContext): Promise<void> {
  await printOne(ctx, await getClock(await ctx.client()));
}

/** `svc clock advance <duration>`: the duration as given, checked here. */
export async function runAdvanceVerb(ctx: CliContext, opts: { duration: string }): Promise<void> {
  const seconds = parseDuration(opts.duration, '<duration>');
  if (seconds < 1) throw new UsageError('the duration must be at least 1s', '<duration>');
  await runAdvance(ctx, { seconds, duration: opts.duration });
}

export async function runAdvance(ctx: CliContext, opts: { seconds: number; duration: string }): Promise<void> {
  const advanced = await advanceClock(await ctx.client(), opts.seconds);
  const forPeople = ctx.io.stdoutTTY && (ctx.outputFormat === undefined || ctx.outputFormat === 'table');
  if (!forPeople) return printOne(ctx, advanced);
  // What moved and what ran, in words: the items of each kind of work (carrier reports, decisions,
  // delivery attempts); kinds whose jobs started nothing (an idle webhook tick) are left out.
  const ran = advanced.ran.filter((line) => line.items > 0).map((line) => `${line.items} ${line.label}`);
  ctx.io.stdout.write(`advanced ${opts.duration}: the service clock is now ${advanced.now}\n`);
  ctx.io.stdout.write(ran.length ? `ran: ${ran.join(', ')}\n` : 'nothing fell due\n');
}
