import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printOne } from '../../print-resource.js';
import { hangUpSandboxCall, pressSandboxCallDigits } from '../../../api/resources/sandbox-calls.js';
import { DIGITS_PATTERN, SANDBOX_CALL_LIMITS } from '../../../api/values/calls.js';
import { CALL_COLUMNS } from './columns.js';

// The sandbox caller's acts on a call under way (the console's dial pad and hang-up),
// from a terminal or a script: the same routes, the same rules.

export interface PressKeysOptions {
  id: string;
  digits: string;
}

export async function runPressKeys(ctx: CliContext, opts: PressKeysOptions): Promise<void> {
  const digits = opts.digits.trim();
  // Checked here as the service does, so a typo names the argument and sends nothing.
  if (digits === '' || !DIGITS_PATTERN.test(digits)) throw new UsageError(`<digits>: "${opts.digits}" is not one or more keys of 0-9, * and #`, '<digits>');
  if (digits.length > SANDBOX_CALL_LIMITS.maxDigits) throw new UsageError(`<digits>: at most ${SANDBOX_CALL_LIMITS.maxDigits} keys`, '<digits>');
  await printOne(ctx, await pressSandboxCallDigits(await ctx.client(), opts.id, digits), CALL_COLUMNS);
}

export interface HangUpOptions {
  id: string;
}

export async function runHangUp(ctx: CliContext, opts: HangUpOptions): Promise<void> {
  await printOne(ctx, await hangUpSandboxCall(await ctx.client(), opts.id), CALL_COLUMNS);
}
