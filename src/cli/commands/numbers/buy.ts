import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';
import { dollars, NUMBER_COLUMNS } from './columns.js';
import type { AvailableNumber } from '../../../api/schemas/numbers.js';

export interface BuyOptions {
  phoneNumber: string;
}

export function buyCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('buy')
    .description('Buy a number found with `svc numbers search` (asks first, showing the monthly price)')
    .argument('<number>', 'the number to buy, E.164')
    .addHelpText(
      'after',
      `
The command looks the number up in the carrier's inventory to show its monthly price, then asks.
A number that is not for sale (taken, or not in the inventory) is refused before anything is bought
(exit 5). Without a terminal, pass --yes (otherwise exit 2, nothing bought).

Examples:
  $ svc numbers buy +14155550123
  $ svc numbers buy +18885550123 --yes -o json`,
    )
    .action(async (phoneNumber: string) => runBuy(ctx, { phoneNumber }));
}

export async function runBuy(ctx: CliContext, opts: BuyOptions): Promise<void> {
  const { requireE164 } = await import('../../phone-numbers.js');
  const phoneNumber = requireE164(opts.phoneNumber, '<number>');
  const client = await ctx.client();
  const numbers = await import('../../../api/resources/numbers.js');
  // --dry-run shows the purchase itself, not the price lookup before it.
  if (!client.dryRun) {
    const offer = await findOffer(ctx, phoneNumber);
    if (!offer) {
      // contract §5: a number not in the inventory (or taken) cannot be bought (409 conflict). Said
      // before buying: the lookup is exact, so asking the service would only get the same answer.
      const { ApiError } = await import('../../../api/client/errors.js');
      throw new ApiError({
        code: 'conflict',
        status: 409,
        message: `${phoneNumber} is not available: it is taken or not in the carrier's inventory; find one with \`svc numbers search\``,
      });
    }
    const where = offer.locality ? `, ${offer.locality}${offer.region ? `, ${offer.region}` : ''}` : '';
    const settings = await ctx.settings();
    const free = settings.apiKey?.startsWith('sk_test_') ? ' (test key: not charged)' : '';
    await ctx.confirm(`Buy ${phoneNumber} (${offer.type}${where}) for ${dollars(offer.monthlyPriceCents)}/month${free}?`);
  }
  const bought = await numbers.buyNumber(client, { phoneNumber });
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
  const { TOLL_FREE_PREFIXES } = await import('../../phone-numbers.js');
  const type = TOLL_FREE_PREFIXES.includes(areaCode) ? 'tollfree' : 'local';
  const { searchNumbers } = await import('../../../api/resources/numbers.js');
  const { ApiError } = await import('../../../api/client/errors.js');
  try {
    const page = await searchNumbers(await ctx.client(), { type, areaCode, contains: line, limit: 100 });
    return page.data.find((n) => n.phoneNumber === phoneNumber);
  } catch (err) {
    // An area code the service does not know is a validation_error on the search: not for sale.
    if (err instanceof ApiError && err.code === 'validation_error') return undefined;
    throw err;
  }
}
