import { assertCanSpend, charge, type BillingDeps } from '../billing/charging.js';
import { ServiceError } from '../../errors.js';
import { monthToDate } from '../billing/wallet.js';
import { PRICES } from '../../../api/values/prices.js';
import type { UsageCategory } from '../../../api/values/billing.js';

// contract §11: voice and transcription minutes are known only when they end, so a call cannot reserve
// its exact price. Decisions (the spec is silent on a call that outlives the balance):
// - A live call starts only when the wallet could pay its first minute (and the first transcribed
//   minute when the route transcribes live): `assertCanStartCall` throws 402 `payment_required` /
//   `budget_exceeded` before the call is recorded. Test keys never move money.
// - At the end the call is charged what it used. When the wallet (or the month's spend limit) cannot
//   cover all of it, the call is charged what can be paid — the balance never goes below zero — and
//   the rest is written off (the ledger row still carries the minutes used). The next call is then
//   refused at its start. A call is never cut mid-conversation for money.

/** The price of the first minute of a call: what a call must be able to pay to start. */
export function firstMinuteCents(liveTranscription: boolean): number {
  return PRICES.voiceMinute + (liveTranscription ? PRICES.transcriptionMinute : 0);
}

export async function assertCanStartCall(deps: BillingDeps, who: { accountId: string; mode: 'live' | 'test' }, liveTranscription: boolean): Promise<void> {
  await assertCanSpend(deps, who, 'the first minute of a call', firstMinuteCents(liveTranscription));
}

/**
 * Charges a live call's usage at its end, inside the step's transaction; never throws for money:
 * what the wallet cannot cover is written off (see above). Returns the cents charged.
 */
export async function chargeCallUsage(
  deps: BillingDeps,
  accountId: string,
  item: { category: Extract<UsageCategory, 'voice' | 'transcription'>; quantity: number; amountCents: number; ref: string },
): Promise<number> {
  const live = { accountId, mode: 'live' as const };
  try {
    await charge(deps, live, item);
    return item.amountCents;
  } catch (err) {
    if (!isRefusal(err)) throw err;
  }
  const payable = Math.min(item.amountCents, await affordableCents(deps, accountId));
  if (payable <= 0) return 0;
  try {
    await charge(deps, live, { ...item, amountCents: payable });
    return payable;
  } catch (err) {
    if (!isRefusal(err)) throw err;
    return 0;
  }
}

const isRefusal = (err: unknown): boolean => err instanceof ServiceError && err.status === 402;

/** What the wallet can pay now without going below zero or over the month's spend limit. */
async function affordableCents(deps: BillingDeps, accountId: string): Promise<number> {
  const wallet = await deps.wallets.get(accountId);
  if (!wallet) return 0;
  // As charging.ts counts it: the month's charges and the open holds.
  const spentThisMonth = await monthToDate(deps, wallet, deps.clock.nowMs()) + await deps.holds.openTotal(accountId);
  return Math.max(0, Math.min(wallet.balanceCents, wallet.spendLimitCents - spentThisMonth));
}
