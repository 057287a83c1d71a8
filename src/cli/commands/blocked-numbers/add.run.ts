import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { requireE164 } from '../../phone-numbers.js';
import { addBlockedNumber } from '../../../api/resources/blocked-numbers.js';
import { BLOCKED_COLUMNS } from './columns.js';

export interface AddBlockedOptions {
  phoneNumber: string;
  reason?: string;
}

export async function runAddBlocked(ctx: CliContext, opts: AddBlockedOptions): Promise<void> {
  const phoneNumber = requireE164(opts.phoneNumber, '<phone-number>');
  const entry = await addBlockedNumber(await ctx.client(), { phoneNumber, ...(opts.reason !== undefined ? { reason: opts.reason } : {}) });
  await printOne(ctx, entry, BLOCKED_COLUMNS);
}
