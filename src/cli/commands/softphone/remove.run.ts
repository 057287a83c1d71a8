import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { removeDevice } from '../../../api/resources/softphone.js';
import type { RemoveDeviceOptions } from './remove.js';

export async function runRemoveDevice(ctx: CliContext, { id }: RemoveDeviceOptions): Promise<void> {
  await ctx.confirm(`Remove softphone device ${id}? It can no longer log in or ring.`);
  await removeDevice(await ctx.client(), id);
  notice(ctx, `removed ${id}`);
}
