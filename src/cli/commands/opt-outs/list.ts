import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags, type RunF } from '../../command-kit.js';

export interface ListOptOutsOptions extends ListFlags {
  from?: string;
  phoneNumber?: string;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListOptOutsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListOptOuts(ctx, opts));
  return addListOptions(parent.command('list').description('List consumers who texted STOP (or another stop word) to your numbers, newest first'))
    .option('--from <e164>', 'opt-outs of this number of yours')
    .option('--phone-number <e164>', 'opt-outs by this consumer')
    .addHelpText(
      'after',
      `
Columns: id, from, phoneNumber, keyword, createdAt (piped: tab-separated, ISO times).

A consumer who texts a stop word (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, or
one of the campaign's optoutKeywords) to a number is opted out of that number: sends from it to them
are refused (svc messages send exits 8). Only the consumer lifts it, by texting START.

Examples:
  $ svc opt-outs list
  $ svc opt-outs list --from +14155550100 --all -o ndjson
  $ svc opt-outs list --phone-number +14155550199`,
    )
    .action(async (o: ListOptOutsOptions) => run(o));
}
