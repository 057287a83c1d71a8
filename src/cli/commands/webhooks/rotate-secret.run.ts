import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { rotateWebhookSecret } from '../../../api/resources/webhooks.js';
import { ENDPOINT_WITH_SECRET_COLUMNS, SECRET_NOTICE } from './columns.js';
import type { WebhookArg as RotateSecretOptions } from './options.js';

export async function runRotateSecret(ctx: CliContext, { id }: RotateSecretOptions): Promise<void> {
  await ctx.confirm(`Rotate the signing secret of ${id}? The current secret stops working at once.`);
  const rotated = await rotateWebhookSecret(await ctx.client(), id);
  await printOne(ctx, rotated, ENDPOINT_WITH_SECRET_COLUMNS);
  notice(ctx, SECRET_NOTICE);
}
