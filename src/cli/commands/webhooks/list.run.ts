import { describeSubaccount, type CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { listWebhooks } from '../../../api/resources/webhooks.js';
import { printList } from '../../../output/formatters.js';
import { ENDPOINT_LIST_COLUMNS } from './columns.js';

export async function runListWebhooks(ctx: CliContext): Promise<void> {
  const endpoints = await listWebhooks(await ctx.client());
  await printList(ctx.io, endpoints, { format: ctx.outputFormat, columns: ENDPOINT_LIST_COLUMNS, now: ctx.serviceNow() });
  if (endpoints.length === 0 && ctx.io.stderrTTY) {
    const acting = await ctx.actingAs();
    notice(ctx, `no webhook endpoints found${acting ? ` for ${describeSubaccount(acting)}` : ''} (svc webhooks create --url …)`);
  }
}
