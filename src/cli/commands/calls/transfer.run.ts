import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printOne } from '../../print-resource.js';
import { requireE164 } from '../../phone-numbers.js';
import { transferCall } from '../../../api/resources/calls.js';
import { CALL_COLUMNS } from './columns.js';

export interface TransferCallOptions {
  id: string;
  to: string;
}

export async function runTransferCall(ctx: CliContext, opts: TransferCallOptions): Promise<void> {
  const target = opts.to.trim();
  // contract §6: `{to: E.164 | deviceId}`; anything else is refused here, naming the flag.
  const to = target.startsWith('+') ? requireE164(target, '--to') : target;
  if (!to.startsWith('+') && !/^dev_\S+$/.test(to)) throw new UsageError(`--to: "${opts.to}" is neither an E.164 number nor a device id (dev_…)`, '--to');
  await printOne(ctx, await transferCall(await ctx.client(), opts.id, { to }), CALL_COLUMNS);
}
