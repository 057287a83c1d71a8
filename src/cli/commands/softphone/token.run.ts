import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { mintDeviceToken } from '../../../api/resources/softphone.js';

export interface DeviceTokenOptions {
  id: string;
}

export async function runDeviceToken(ctx: CliContext, { id }: DeviceTokenOptions): Promise<void> {
  const minted = await mintDeviceToken(await ctx.client(), id);
  // Piped with no format asked for: the bare token, so `TOKEN=$(svc softphone devices token …)` works.
  if (ctx.outputFormat === undefined && !ctx.io.stdoutTTY) {
    ctx.io.stdout.write(`${minted.token}\n`);
    return;
  }
  await printOne(ctx, minted, ['token', 'expiresAt']);
}
