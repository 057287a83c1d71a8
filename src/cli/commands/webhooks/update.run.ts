import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { updateWebhook } from '../../../api/resources/webhooks.js';
import type { UpdateWebhookBody } from '../../../api/schemas/webhooks.js';
import { ENDPOINT_COLUMNS } from './columns.js';
import type { UpdateWebhookOptions } from './options.js';

export function updateBody(opts: Omit<UpdateWebhookOptions, 'id'>): UpdateWebhookBody {
  const body: UpdateWebhookBody = {};
  if (opts.url !== undefined) body.url = opts.url;
  if (opts.events !== undefined) body.events = opts.events;
  if (opts.description !== undefined) body.description = opts.description === '' ? null : opts.description;
  if (opts.enabled !== undefined) body.enabled = opts.enabled;
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --url, --events, --description, --enable or --disable', '--url');
  return body;
}

export async function runUpdate(ctx: CliContext, opts: UpdateWebhookOptions): Promise<void> {
  const body = updateBody(opts);
  await printOne(ctx, await updateWebhook(await ctx.client(), opts.id, body), ENDPOINT_COLUMNS);
}
