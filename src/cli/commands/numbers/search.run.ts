import type { CliContext } from '../../context.js';
import { notice, parseLimit } from '../../command-kit.js';
import { checkFlags, namingFlags } from '../../schema-flags.js';
import { searchNumbers, type SearchNumbersInput } from '../../../api/resources/numbers.js';
import { SearchNumbersBody, type AvailableNumber } from '../../../api/schemas/numbers.js';
import { printList, resolveFormat } from '../../../output/formatters.js';
import { dollars } from '../../money.js';
import type { SearchOptions } from './options.js';

const SEARCH_FLAGS = { type: '--type', areaCode: '--area-code', locality: '--locality', contains: '--contains', capabilities: '--capability', limit: '--limit' };

// Machine formats keep the API's fields; a table for people shows dollars and a capability list.
const MACHINE_COLUMNS = ['phoneNumber', 'type', 'locality', 'region', 'capabilities', 'monthlyPriceCents'];
const TABLE_COLUMNS = ['phoneNumber', 'type', 'locality', 'region', 'capabilities', 'monthly'];

export async function runSearch(ctx: CliContext, opts: SearchOptions): Promise<void> {
  const limit = parseLimit(opts.limit);
  const body: SearchNumbersInput = {
    type: opts.type ?? 'local',
    areaCode: opts.areaCode,
    locality: opts.locality,
    contains: opts.contains,
    capabilities: opts.capabilities.length ? [...new Set(opts.capabilities)] : undefined,
    limit,
  };
  // spec: Numbers search (contains 1-7 digits). contract §5 (a local search needs an area code) is
  // the service's to judge: its error names the area codes of --locality.
  checkFlags(SearchNumbersBody, body, SEARCH_FLAGS);
  const client = await ctx.client();
  const page = await namingFlags(SEARCH_FLAGS, () => searchNumbers(client, body));
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  if (format === 'table') {
    await printList(ctx.io, page.data.map(forPeople), { format: 'table', columns: TABLE_COLUMNS, now: ctx.serviceNow() });
  } else {
    await printList(ctx.io, page.data, { format: ctx.outputFormat, columns: MACHINE_COLUMNS, idField: 'phoneNumber', now: ctx.serviceNow() });
  }
  if (page.data.length === 0 && ctx.io.stderrTTY) notice(ctx, 'no numbers found; try another area code or fewer filters');
}

function forPeople(n: AvailableNumber): Record<string, unknown> {
  const caps = (['sms', 'mms', 'voice'] as const).filter((c) => n.capabilities[c]).join(',');
  return { phoneNumber: n.phoneNumber, type: n.type, locality: n.locality, region: n.region, capabilities: caps, monthly: dollars(n.monthlyPriceCents) };
}
