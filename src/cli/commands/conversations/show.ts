import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { THREAD_LIMIT_DEFAULT, THREAD_LIMIT_MAX } from '../../../api/values/conversations.js';

export interface ShowConversationOptions {
  counterparty: string;
  /** The latest N messages (1-200, service default 50). */
  limit?: string;
}


export function showCommand(parent: Command, ctx: CliContext, runF?: RunF<ShowConversationOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./show.run.js')).runShow(ctx, opts));
  return parent
    .command('show')
    .description('Show the thread with one counterparty, oldest first')
    .argument('<counterparty>', 'the other party, E.164')
    .option('--limit <n>', `the latest N messages (1-${THREAD_LIMIT_MAX}, default ${THREAD_LIMIT_DEFAULT})`)
    .addHelpText(
      'after',
      `
On a terminal: one line per message (→ you sent it, ← they did), local time, body, and the status
when it is not delivered. Piped or with -o: the messages as rows like any list.

Examples:
  $ svc conversations show +14155550123
  $ svc conversations show +14155550123 --limit 200 -o ndjson`,
    )
    .action(async (counterparty: string, o: { limit?: string }) => run({ counterparty, limit: o.limit }));
}
