import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { createWebhook } from '../../../api/resources/webhooks.js';
import { ENDPOINT_WITH_SECRET_COLUMNS, SECRET_NOTICE } from './columns.js';
import type { CreateWebhookOptions } from './options.js';

export async function runCreate(ctx: CliContext, opts: CreateWebhookOptions): Promise<void> {
  const created = await createWebhook(await ctx.client(), {
    url: opts.url,
    ...(opts.events ? { events: opts.events } : {}),
    ...(opts.description !== undefined ? { description: opts.description } : {}),
  });
  await printOne(ctx, created, ENDPOINT_WITH_SECRET_COLUMNS);
  notice(ctx, SECRET_NOTICE);
}
