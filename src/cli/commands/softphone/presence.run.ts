import type { CliContext } from '../../context.js';
import type { DevicePresence } from '../../../api/values/calls.js';
import { printOne } from '../../print-resource.js';
import { setDevicePresence } from '../../../api/resources/softphone.js';
import { DEVICE_COLUMNS } from './columns.js';

export interface DevicePresenceOptions {
  id: string;
  status: DevicePresence;
}

export async function runDevicePresence(ctx: CliContext, { id, status }: DevicePresenceOptions): Promise<void> {
  await printOne(ctx, await setDevicePresence(await ctx.client(), id, { status }), DEVICE_COLUMNS);
}
