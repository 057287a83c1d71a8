import type { CliContext } from '../../context.js';
import { CliError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { dollars } from '../../money.js';
import type { ApiClient } from '../../../api/client/client.js';
import { getBilling } from '../../../api/resources/billing.js';
import type { Billing } from '../../../api/schemas/billing.js';
import { KEY_PREFIX } from '../../../api/values/keys.js';

// Checks a paid command makes before it asks to confirm a price: the API would refuse the act only
// after the person said yes (contract §11: the wallet pays, auto-recharge from the saved card tops it
// up when it is short; a card charge needs a saved card). Said in commands, never API paths.

/** An amount as a shell argument (`2.49`): `$2.49` in a command line is the shell's `$2`. */
export const dollarsArg = (cents: number): string => (cents / 100).toFixed(2);

/** Whether the acting key moves money (a test key never does: nothing to check). */
async function movesMoney(ctx: CliContext, client: ApiClient): Promise<boolean> {
  if (client.dryRun) return false;
  const settings = await ctx.settings();
  return !settings.apiKey?.startsWith(KEY_PREFIX.test);
}

/**
 * Why `b` cannot pay `costCents` now, in CLI terms, or undefined when it can: the monthly limit
 * first (as the service checks it), then the balance, unless auto-recharge with a saved card fills it.
 */
export function shortfall(b: Billing, costCents: number, what: string): string | undefined {
  const spent = b.monthToDateCents + costCents;
  if (spent > b.spendLimitCents) {
    return `${what} costs ${dollars(costCents)}, which would take this month's spend to ${dollars(spent)}, past the monthly limit of ${dollars(b.spendLimitCents)}: raise it with \`svc billing limit <amount>\``;
  }
  const { balanceCents, autoRecharge, hasCard } = b.wallet;
  if (balanceCents >= costCents || (autoRecharge.enabled && hasCard)) return undefined;
  const why = autoRecharge.enabled ? 'auto-recharge is on but no card is saved' : 'auto-recharge is off';
  const short = costCents - balanceCents;
  const card = hasCard ? '' : ' (it charges the saved card: `svc billing card <token>` first)';
  return `${what} costs ${dollars(costCents)} and the wallet holds ${dollars(balanceCents)} (${why}): add at least ${dollars(short)} with \`svc billing top-up ${dollarsArg(short)}\`${card}, or turn on \`svc billing auto-recharge --enable\` with a saved card`;
}

/** Refuses (exit 7, as the API's 402 would) before any question about the price when the account cannot pay it. */
export async function requireFunds(ctx: CliContext, client: ApiClient, costCents: number, what: string, after = ''): Promise<void> {
  if (!(await movesMoney(ctx, client))) return;
  const problem = shortfall(await getBilling(client), costCents, what);
  if (problem) throw new CliError(`${problem}${after}`, EXIT.payment);
}

/** Refuses (exit 5, as the API's 409 would) before asking to charge a card when none is saved. */
export async function requireCard(ctx: CliContext, client: ApiClient, what: string, again: string): Promise<void> {
  if (!(await movesMoney(ctx, client))) return;
  if ((await getBilling(client)).wallet.hasCard) return;
  throw new CliError(`${what} charges the saved card, and no card is saved: save one with \`svc billing card <token>\` (in the sandbox: tok_visa), then run \`${again}\` again`, EXIT.conflict);
}
