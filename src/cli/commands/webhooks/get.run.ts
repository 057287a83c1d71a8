import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { getWebhook } from '../../../api/resources/webhooks.js';
import { ENDPOINT_COLUMNS } from './columns.js';
import type { WebhookArg as GetWebhookOptions } from './options.js';

export async function runGet(ctx: CliContext, { id }: GetWebhookOptions): Promise<void> {
  await printOne(ctx, await getWebhook(await ctx.client(), id), ENDPOINT_COLUMNS);
}
