import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseTypeList } from '../events/types-flag.js';
import { requireHttpUrl } from './url-flag.js';
import { ENDPOINT_COLUMNS } from './columns.js';
import type { UpdateWebhookBody } from '../../../api/schemas/webhooks.js';

export interface UpdateWebhookOptions {
  url?: string;
  events?: string[];
  /** `''` clears it. */
  description?: string;
  enabled?: boolean;
}

export function updateCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('update')
    .description('Change a webhook endpoint: URL, events, description, enabled')
    .argument('<id>', 'endpoint id (we_…)')
    .option('--url <url>', 'new URL (same rules as create)')
    .option('--events <types>', 'new event filter, comma-separated (* for every event)')
    .option('--description <text>', 'new description ("" clears it)')
    .option('--enable', 're-enable it (clears the failing streak; abandoned deliveries are not resent)')
    .option('--disable', 'disable it by hand (its scheduled deliveries are abandoned)')
    .addHelpText(
      'after',
      `
Give at least one change. A new URL or filter applies from the next attempt and the next event.

Examples:
  $ svc webhooks update we_123 --events 'message.*,call.completed'
  $ svc webhooks update we_123 --enable
  $ svc webhooks update we_123 --url https://example.com/v2/hooks --description ""`,
    )
    .action(async (id: string, o: { url?: string; events?: string; description?: string; enable?: boolean; disable?: boolean }) => {
      if (o.enable && o.disable) throw new UsageError('give --enable or --disable, not both', '--disable');
      await runUpdate(ctx, id, {
        url: o.url === undefined ? undefined : requireHttpUrl(o.url, '--url'),
        events: parseTypeList(o.events, '--events'),
        description: o.description,
        enabled: o.enable ? true : o.disable ? false : undefined,
      });
    });
}

export function updateBody(opts: UpdateWebhookOptions): UpdateWebhookBody {
  const body: UpdateWebhookBody = {};
  if (opts.url !== undefined) body.url = opts.url;
  if (opts.events !== undefined) body.events = opts.events;
  if (opts.description !== undefined) body.description = opts.description === '' ? null : opts.description;
  if (opts.enabled !== undefined) body.enabled = opts.enabled;
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --url, --events, --description, --enable or --disable', '--url');
  return body;
}

export async function runUpdate(ctx: CliContext, id: string, opts: UpdateWebhookOptions): Promise<void> {
  const body = updateBody(opts);
  const { updateWebhook } = await import('../../../api/resources/webhooks.js');
  await printOne(ctx, await updateWebhook(await ctx.client(), id, body), ENDPOINT_COLUMNS);
}
