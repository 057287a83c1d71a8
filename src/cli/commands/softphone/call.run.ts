import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { requireE164 } from '../../phone-numbers.js';
import { placeSoftphoneCall } from '../../../api/resources/softphone.js';
import { CALL_COLUMNS } from '../calls/columns.js';
import { numberAsE164 } from '../calls/number-e164.js';

export interface SoftphoneCallOptions {
  device: string;
  from: string;
  to: string;
}

export async function runSoftphoneCall(ctx: CliContext, opts: SoftphoneCallOptions): Promise<void> {
  const to = requireE164(opts.to, '--to');
  const client = await ctx.client();
  const from = await numberAsE164(await ctx.readClient(), opts.from, '--from');
  await printOne(ctx, await placeSoftphoneCall(client, { deviceId: opts.device, from, to }), CALL_COLUMNS);
}
