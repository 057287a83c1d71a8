import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES, type MessageStatusValue } from '../../../api/values/messages.js';

export interface ListMessagesOptions extends ListFlags {
  direction?: (typeof MESSAGE_DIRECTIONS)[number];
  from?: string;
  to?: string;
  status?: MessageStatusValue;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListMessagesOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListMessages(ctx, opts));
  return addListOptions(parent.command('list').description('List messages, newest first'))
    .addOption(enumOption('--direction <direction>', 'outbound or inbound', MESSAGE_DIRECTIONS))
    .option('--from <e164>', 'sent from this number')
    .option('--to <e164>', 'sent to this number')
    .addOption(enumOption('--status <status>', 'only messages in this status', MESSAGE_STATUSES))
    .addHelpText(
      'after',
      `
Columns: id, direction, from, to, status, segments, createdAt, body (piped: tab-separated, ISO times).

Examples:
  $ svc messages list
  $ svc messages list --status failed --limit 50
  $ svc messages list --direction inbound --to +14155550100 --all -o ndjson`,
    )
    .action(async (o: ListMessagesOptions) => run(o));
}
