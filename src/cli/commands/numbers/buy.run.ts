import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { requireE164 } from '../../phone-numbers.js';
import { buyNumber, searchNumbers } from '../../../api/resources/numbers.js';
import { ApiError } from '../../../api/client/errors.js';
import type { AvailableNumber } from '../../../api/schemas/numbers.js';
import { KEY_PREFIX } from '../../../api/values/keys.js';
import { TOLL_FREE_PREFIXES } from '../../../api/values/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import { dollars } from '../../money.js';
import type { BuyOptions } from './options.js';

export async function runBuy(ctx: CliContext, opts: BuyOptions): Promise<void> {
  const phoneNumber = requireE164(opts.phoneNumber, '<number>');
  const client = await ctx.client();
  // --dry-run shows the purchase itself, not the price lookup before it.
  if (!client.dryRun) {
    const offer = await findOffer(ctx, phoneNumber);
    if (!offer) {
      // contract §5: a number not in the inventory (or taken) cannot be bought (409 conflict). Said
      // before buying: the lookup is exact, so asking the service would only get the same answer.
      throw new ApiError({
        code: 'conflict',
        status: 409,
        message: `${phoneNumber} is not available: it is taken or not in the carrier's inventory; find one with \`svc numbers search\``,
      });
    }
    const where = offer.locality ? `, ${offer.locality}${offer.region ? `, ${offer.region}` : ''}` : '';
    const settings = await ctx.settings();
    const free = settings.apiKey?.startsWith(KEY_PREFIX.test) ? ' (test key: not charged)' : '';
    await ctx.confirm(`Buy ${phoneNumber} (${offer.type}${where}) for ${dollars(offer.monthlyPriceCents)}/month${free}?`);
  }
  const bought = await buyNumber(client, { phoneNumber });
  await printOne(ctx, bought, NUMBER_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `bought ${bought.phoneNumber} (${bought.id})`);
}

/**
 * The inventory entry for one number: a search narrowed to it. contract §5: toll-free prefixes 800
 * 833 844 855 866 877 888, else local; the area code is the 3 digits after +1 and `contains` the
 * last 7 digits, which pins the number down.
 */
export async function findOffer(ctx: CliContext, phoneNumber: string): Promise<AvailableNumber | undefined> {
  const m = /^\+1(\d{3})(\d{7})$/.exec(phoneNumber);
  // The carrier sells North American numbers only: anything else is not in the inventory.
  if (!m) return undefined;
  const [, areaCode, line] = m as unknown as [string, string, string];
  const type = TOLL_FREE_PREFIXES.includes(areaCode) ? 'tollfree' : 'local';
  try {
    const page = await searchNumbers(await ctx.client(), { type, areaCode, contains: line, limit: 100 });
    return page.data.find((n) => n.phoneNumber === phoneNumber);
  } catch (err) {
    // An area code the service does not know is a validation_error on the search: not for sale.
    if (err instanceof ApiError && err.code === 'validation_error') return undefined;
    throw err;
  }
}
