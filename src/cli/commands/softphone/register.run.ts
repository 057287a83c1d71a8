import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { registerDevice } from '../../../api/resources/softphone.js';
import { DEVICE_COLUMNS } from './columns.js';

export interface RegisterDeviceOptions {
  user: string;
  label: string;
}

export async function runRegisterDevice(ctx: CliContext, opts: RegisterDeviceOptions): Promise<void> {
  const { device, created } = await registerDevice(await ctx.client(), { userId: opts.user, label: opts.label });
  await printOne(ctx, device, DEVICE_COLUMNS);
  // contract §6: the same user and label answer 200 with the device already registered.
  if (!created && ctx.io.stderrTTY) notice(ctx, `${opts.user} already had a device labelled "${opts.label}": ${device.id}`);
}
