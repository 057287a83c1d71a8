import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { Option as OptionType } from 'commander';
import { Option } from '../../commander.js';
import { enumOption, notice, parseLimit } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { dollars } from './columns.js';
import type { AvailableNumber } from '../../../api/schemas/numbers.js';

export interface SearchOptions {
  areaCode?: string;
  locality?: string;
  type?: 'local' | 'tollfree';
  contains?: string;
  capabilities: Array<'sms' | 'mms' | 'voice'>;
  limit?: string;
}

const CAPABILITIES = ['sms', 'mms', 'voice'];

/** Repeatable, and each value checked (commander's choices() alone does not collect). */
const capabilityOption = (): OptionType =>
  new Option('--capability <capability>', 'must have it: sms, mms or voice (repeatable)').choices(CAPABILITIES).argParser((value: string, previous: string[] | undefined) => {
    if (!CAPABILITIES.includes(value)) throw new UsageError(`--capability: "${value}" is not one of ${CAPABILITIES.join(', ')}`, '--capability');
    return [...(previous ?? []), value];
  });

// Machine formats keep the API's fields; a table for people shows dollars and a capability list.
const MACHINE_COLUMNS = ['phoneNumber', 'type', 'locality', 'region', 'capabilities', 'monthlyPriceCents'];
const TABLE_COLUMNS = ['phoneNumber', 'type', 'locality', 'region', 'capabilities', 'monthly'];

export function searchCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('search')
    .description('Search the carrier inventory for numbers to buy')
    .option('--area-code <nnn>', 'three-digit area code (a local search needs it, or --locality)')
    .option('--locality <city>', 'city, e.g. "Austin" or "Austin, TX"')
    .addOption(enumOption('--type <type>', 'local (default) or tollfree', ['local', 'tollfree']))
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
    .action(async (o: { areaCode?: string; locality?: string; type?: 'local' | 'tollfree'; contains?: string; capability?: Array<'sms' | 'mms' | 'voice'>; limit?: string }) =>
      runSearch(ctx, { areaCode: o.areaCode, locality: o.locality, type: o.type, contains: o.contains, capabilities: o.capability ?? [], limit: o.limit }),
    );
}

export async function runSearch(ctx: CliContext, opts: SearchOptions): Promise<void> {
  // spec: Numbers search — contains 1-7 digits; contract §5: a local search needs an area code.
  if (opts.areaCode !== undefined && !/^\d{3}$/.test(opts.areaCode)) throw new UsageError(`--area-code: "${opts.areaCode}" is not three digits`, '--area-code');
  if (opts.contains !== undefined && !/^\d{1,7}$/.test(opts.contains)) throw new UsageError(`--contains: "${opts.contains}" is not 1 to 7 digits`, '--contains');
  const type = opts.type ?? 'local';
  if (type === 'local' && opts.areaCode === undefined) {
    throw new UsageError('a local search needs --area-code (or --type tollfree)', '--area-code');
  }
  const limit = parseLimit(opts.limit);
  const { searchNumbers } = await import('../../../api/resources/numbers.js');
  const page = await searchNumbers(await ctx.client(), {
    type,
    areaCode: opts.areaCode,
    locality: opts.locality,
    contains: opts.contains,
    capabilities: opts.capabilities.length ? [...new Set(opts.capabilities)] : undefined,
    limit,
  });
  const { printList, resolveFormat } = await import('../../../output/formatters.js');
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  if (format === 'table') {
    await printList(ctx.io, page.data.map(forPeople), { format: 'table', columns: TABLE_COLUMNS, now: ctx.now() });
  } else {
    await printList(ctx.io, page.data, { format: ctx.outputFormat, columns: MACHINE_COLUMNS, idField: 'phoneNumber', now: ctx.now() });
  }
  if (page.data.length === 0 && ctx.io.stderrTTY) notice(ctx, 'no numbers found; try another area code or fewer filters');
}

function forPeople(n: AvailableNumber): Record<string, unknown> {
  const caps = (['sms', 'mms', 'voice'] as const).filter((c) => n.capabilities[c]).join(',');
  return { phoneNumber: n.phoneNumber, type: n.type, locality: n.locality, region: n.region, capabilities: caps, monthly: dollars(n.monthlyPriceCents) };
}
