import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, runList, type ListFlags } from '../../command-kit.js';
import { MESSAGE_LIST_COLUMNS } from './columns.js';

export interface ListMessagesOptions extends ListFlags {
  direction?: 'outbound' | 'inbound';
  from?: string;
  to?: string;
  status?: string;
}

const STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'undelivered', 'received'];

export function listCommand(parent: Command, ctx: CliContext): Command {
  return addListOptions(parent.command('list').description('List messages, newest first'))
    .addOption(enumOption('--direction <direction>', 'outbound or inbound', ['outbound', 'inbound']))
    .option('--from <e164>', 'sent from this number')
    .option('--to <e164>', 'sent to this number')
    .addOption(enumOption('--status <status>', 'only messages in this status', STATUSES))
    .addHelpText(
      'after',
      `
Columns: id, direction, from, to, status, segments, createdAt, body (piped: tab-separated, ISO times).

Examples:
  $ svc messages list
  $ svc messages list --status failed --limit 50
  $ svc messages list --direction inbound --to +14155550100 --all -o ndjson`,
    )
    .action(async (o: ListMessagesOptions) => runListMessages(ctx, o));
}

export async function runListMessages(ctx: CliContext, opts: ListMessagesOptions): Promise<void> {
  const { requireE164 } = await import('../../phone-numbers.js');
  const query = {
    direction: opts.direction,
    from: opts.from === undefined ? undefined : requireE164(opts.from, '--from'),
    to: opts.to === undefined ? undefined : requireE164(opts.to, '--to'),
    status: opts.status,
  };
  await runList(ctx, opts, {
    path: '/v1/messages',
    query,
    noun: 'messages',
    columns: MESSAGE_LIST_COLUMNS,
    allColumns: async () => (await import('../../../output/schema-columns.js')).schemaColumns((await import('../../../api/schemas/messages.js')).MessageSchema),
  });
}
