import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { getWebhook, replayWebhook } from '../../../api/resources/webhooks.js';
import type { ReplayOptions } from './sink-options.js';

// `svc webhooks replay --endpoint ID [--since 1h|CURSOR] [--types …] [--status failed|abandoned]`
// (contract §10, extension): a new delivery of each matching past event; prints how many.

export async function runReplay(ctx: CliContext, opts: ReplayOptions): Promise<void> {
  const client = await ctx.client();
  let after: string | undefined;
  if (opts.since && 'agoSecs' in opts.since) {
    // A duration counts back from the service clock (it may have been advanced): reading the endpoint
    // first teaches the client the service's time, and a wrong id is exit 4 before anything is sent.
    await getWebhook(await ctx.readClient(), opts.endpoint);
    after = new Date(ctx.serviceNow().getTime() - opts.since.agoSecs * 1000).toISOString();
  } else if (opts.since) {
    after = opts.since.after;
  }
  const result = await replayWebhook(client, opts.endpoint, {
    ...(after !== undefined ? { after } : {}),
    ...(opts.types ? { types: opts.types } : {}),
    ...(opts.status ? { status: opts.status } : {}),
  });
  if (ctx.outputFormat !== undefined) return printOne(ctx, result);
  if (!ctx.io.stdoutTTY) {
    ctx.io.stdout.write(`${result.count}\n`);
    return;
  }
  const events = `${result.count} event${result.count === 1 ? '' : 's'}`;
  ctx.io.stdout.write(result.count === 0 ? `nothing to replay to ${opts.endpoint}: no past event matches\n` : `replayed ${events} to ${opts.endpoint}: new deliveries, sent now (svc webhooks deliveries ${opts.endpoint})\n`);
}
