import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseTypeList } from '../events/types-flag.js';
import { requireHttpUrl } from './url-flag.js';

export interface UpdateWebhookOptions {
  id: string;
  url?: string;
  events?: string[];
  /** `''` clears it. */
  description?: string;
  enabled?: boolean;
}

export function updateCommand(parent: Command, ctx: CliContext, runF?: RunF<UpdateWebhookOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./update.run.js')).runUpdate(ctx, opts));
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
  $ svc webhooks update we_S8Bq37q53Fx1ZziV3BwL --events 'message.*,call.completed'
  $ svc webhooks update we_S8Bq37q53Fx1ZziV3BwL --enable
  $ svc webhooks update we_S8Bq37q53Fx1ZziV3BwL --url https://example.com/v2/hooks --description ""`,
    )
    .action(async (id: string, o: { url?: string; events?: string; description?: string; enable?: boolean; disable?: boolean }) => {
      if (o.enable && o.disable) throw new UsageError('give --enable or --disable, not both', '--disable');
      await run({
        id,
        url: o.url === undefined ? undefined : requireHttpUrl(o.url, '--url'),
        events: parseTypeList(o.events, '--events'),
        description: o.description,
        enabled: o.enable ? true : o.disable ? false : undefined,
      });
    });
}
