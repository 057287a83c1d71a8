import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { Option as OptionType } from 'commander';
import { Option } from '../../commander.js';
import { enumOption, type RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { CAPABILITY_NAMES, NUMBER_TYPES } from '../../../api/values/numbers.js';

export interface SearchOptions {
  areaCode?: string;
  locality?: string;
  type?: (typeof NUMBER_TYPES)[number];
  contains?: string;
  capabilities: Array<(typeof CAPABILITY_NAMES)[number]>;
  limit?: string;
}

const CAPABILITIES: readonly string[] = CAPABILITY_NAMES;

/** Repeatable, and each value checked (commander's choices() alone does not collect). */
const capabilityOption = (): OptionType =>
  new Option('--capability <capability>', 'must have it: sms, mms or voice (repeatable)').choices(CAPABILITIES).argParser((value: string, previous: string[] | undefined) => {
    if (!CAPABILITIES.includes(value)) throw new UsageError(`--capability: "${value}" is not one of ${CAPABILITIES.join(', ')}`, '--capability');
    return [...(previous ?? []), value];
  });

export function searchCommand(parent: Command, ctx: CliContext, runF?: RunF<SearchOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./search.run.js')).runSearch(ctx, opts));
  return parent
    .command('search')
    .description('Search the carrier inventory for numbers to buy')
    .option('--area-code <nnn>', 'three-digit area code (a local search needs it)')
    .option('--locality <city>', 'narrow to a city of the area code, e.g. "Austin" or "Austin, TX" (without --area-code, the error lists its area codes)')
    .addOption(enumOption('--type <type>', 'local (default) or tollfree', NUMBER_TYPES))
    .option('--contains <digits>', '1 to 7 digits anywhere in the number')
    .addOption(capabilityOption())
    .option('--limit <n>', 'at most N results (1-100, default 20)')
    .addHelpText(
      'after',
      `
On a terminal the monthly price shows in dollars ($1.15); -o json/ndjson/csv and piped rows keep
monthlyPriceCents. Buy one with \`svc numbers buy <number>\`.

Examples:
  $ svc numbers search --area-code 415
  $ svc numbers search --area-code 512 --locality Austin --capability mms --contains 77
  $ svc numbers search --type tollfree --limit 5 -o json`,
    )
    .action(async (o: Omit<SearchOptions, 'capabilities'> & { capability?: SearchOptions['capabilities'] }) =>
      run({ areaCode: o.areaCode, locality: o.locality, type: o.type, contains: o.contains, capabilities: o.capability ?? [], limit: o.limit }),
    );
}
