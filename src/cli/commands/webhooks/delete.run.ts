import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { deleteWebhook } from '../../../api/resources/webhooks.js';
import type { WebhookArg as DeleteWebhookOptions } from './options.js';

export async function runDelete(ctx: CliContext, { id }: DeleteWebhookOptions): Promise<void> {
  await ctx.confirm(`Delete webhook endpoint ${id} and its delivery log? Scheduled retries stop at once.`);
  await deleteWebhook(await ctx.client(), id);
  notice(ctx, `deleted ${id}`);
}
