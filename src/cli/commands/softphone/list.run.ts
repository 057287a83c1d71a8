import type { CliContext } from '../../context.js';
import { runList } from '../../run-list.js';
import { deviceList } from '../../../api/resources/softphone.js';
import { DEVICE_COLUMNS } from './columns.js';
import type { ListDevicesOptions } from './list.js';

export async function runListDevices(ctx: CliContext, opts: ListDevicesOptions): Promise<void> {
  await runList(ctx, opts, { endpoint: deviceList, noun: 'devices', columns: DEVICE_COLUMNS });
}
