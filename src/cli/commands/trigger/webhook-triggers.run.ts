import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { disableWebhookAsIfFailing } from '../../../api/resources/sandbox-webhooks.js';
import { ENDPOINT_COLUMNS } from '../webhooks/columns.js';

export interface EndpointDisabledOptions {
  endpoint: string;
}

export async function runEndpointDisabled(ctx: CliContext, opts: EndpointDisabledOptions): Promise<void> {
  await printOne(ctx, await disableWebhookAsIfFailing(await ctx.client(), opts.endpoint), ENDPOINT_COLUMNS);
}
