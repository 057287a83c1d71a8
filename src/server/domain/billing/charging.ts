import type { HoldsRepo } from '../../storage/holds-repo.js';
import type { KEY_MODES } from '../../../api/values/keys.js';
import type { UsageCategory } from '../../../api/values/billing.js';
import { ServiceError } from '../../errors.js';
import { newId } from '../../ids.js';
import { canAutoRecharge, monthToDate, move, rechargeFromCard, walletOf, type WalletDeps } from './wallet.js';

// contract §11: THE one charging path. Every billable live action calls it inside the
// transaction of the action itself, and every refusal is thrown BEFORE anything is written, so a
// refused action is refused whole (no record, no event, no charge: the transaction rolls back).
//   charge   — priced and paid now (a number's month, an email, a registry fee, a port).
//   reserve  — priced now, paid later (a message is charged on `sent`): a hold takes the money out of
//              the balance at once, so a burst of sends can never overdraw the wallet.
//   settle   — the hold becomes the charge; release — the hold comes back (the action failed first).
// spec: Errors — `payment_required` (402) when the wallet cannot pay and auto-recharge cannot fill
// it; `budget_exceeded` (402) when the month's spend (charges and open holds) would pass the limit.
// spec: Authentication — test keys move no money: every function is a no-op for mode `test`.

export interface BillingDeps extends WalletDeps {
  holds: HoldsRepo;
}

/** Who pays: the acting account and the mode of the key acting (test keys move no money). */
export interface Payer {
  accountId: string;
  mode: (typeof KEY_MODES)[number];
}

export interface ChargeItem {
  category: UsageCategory;
  quantity: number;
  amountCents: number;
  /** What the money is for (message, number, email, brand… id). */
  ref: string | null;
}

const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/**
 * Checks that `amountCents` can be spent now, auto-recharging the wallet from the saved card when
 * its balance is short (the one side effect: a recharge is money the account asked to be taken).
 * Throws the 402 that refuses the action.
 */
async function ensureCanPay(deps: BillingDeps, payer: Payer, what: string, amountCents: number): Promise<void> {
  const wallet = await walletOf(deps, payer.accountId);
  const spent = await monthToDate(deps, wallet, deps.clock.nowMs()) + await deps.holds.openTotal(payer.accountId);
  if (spent + amountCents > wallet.spendLimitCents) {
    throw new ServiceError(
      'budget_exceeded',
      `${what} costs ${dollars(amountCents)}, which would take this month's spend to ${dollars(spent + amountCents)}, past the monthly limit of ${dollars(wallet.spendLimitCents)}; raise it with PATCH /v1/billing {spendLimitCents}`,
    );
  }
  if (wallet.balanceCents >= amountCents) return;
  let reason = 'auto-recharge is off';
  if (canAutoRecharge(wallet)) {
    const shortBy = amountCents - wallet.balanceCents;
    // Charged with no transaction open, then this write runs again and finds the money (outside-first.ts).
    const payment = rechargeFromCard(deps, payer.accountId, Math.max(wallet.rechargeAmountCents, shortBy));
    const after = await walletOf(deps, payer.accountId);
    if (after.balanceCents >= amountCents) return;
    reason = payment.ok ? 'the auto-recharge did not cover it' : `the auto-recharge failed: ${payment.message}`;
  } else if (wallet.autoRechargeEnabled) reason = 'auto-recharge has no saved card';
  throw new ServiceError(
    'payment_required',
    `${what} costs ${dollars(amountCents)} and the wallet holds ${dollars((await walletOf(deps, payer.accountId)).balanceCents)} (${reason}); top it up with POST /v1/billing/wallet/top-up`,
  );
}

const describe = (item: ChargeItem): string => `${item.category.replace(/_/g, ' ')}${item.ref ? ` (${item.ref})` : ''}`;

/** Charges now, or refuses with a 402 having written nothing. */
export async function charge(deps: BillingDeps, payer: Payer, item: ChargeItem): Promise<void> {
  if (payer.mode === 'test' || item.amountCents <= 0) return;
  await ensureCanPay(deps, payer, describe(item), item.amountCents);
  await move(deps, payer.accountId, { kind: 'charge', category: item.category, quantity: item.quantity, amountCents: -item.amountCents, cause: `usage: ${item.category}`, ref: item.ref, holdId: null });
}

/** Reserves the price of an action charged later; returns the hold id (null: nothing to hold). */
export async function reserve(deps: BillingDeps, payer: Payer, item: ChargeItem): Promise<string | null> {
  if (payer.mode === 'test' || item.amountCents <= 0) return null;
  await ensureCanPay(deps, payer, describe(item), item.amountCents);
  const id = newId('hold');
  const now = deps.clock.nowMs();
  await deps.holds.insert({ id, accountId: payer.accountId, category: item.category, amountCents: item.amountCents, ref: item.ref, status: 'open', createdAt: now, closedAt: null });
  await move(deps, payer.accountId, { kind: 'hold', category: null, quantity: item.quantity, amountCents: -item.amountCents, cause: `hold: ${describe(item)}`, ref: item.ref, holdId: id });
  return id;
}

/**
 * The hold for `ref` becomes its charge (the price held, or `actual` when the action ended up
 * costing less). Never refuses: the money was set aside when the action was accepted.
 */
export async function settle(deps: BillingDeps, ref: string, actual?: { quantity: number; amountCents: number }): Promise<void> {
  const hold = await deps.holds.openFor(ref);
  if (!hold || !await deps.holds.close(hold.id, 'settled', deps.clock.nowMs())) return;
  const amountCents = Math.min(actual?.amountCents ?? hold.amountCents, hold.amountCents);
  await move(deps, hold.accountId, { kind: 'release', category: null, quantity: 0, amountCents: hold.amountCents, cause: `settled: ${ref}`, ref, holdId: hold.id });
  await move(deps, hold.accountId, { kind: 'charge', category: hold.category, quantity: actual?.quantity ?? 1, amountCents: -amountCents, cause: `usage: ${hold.category}`, ref, holdId: hold.id });
}

/** The hold for `ref` comes back to the balance (the action failed before it was charged). */
export async function release(deps: BillingDeps, ref: string): Promise<void> {
  const hold = await deps.holds.openFor(ref);
  if (!hold || !await deps.holds.close(hold.id, 'released', deps.clock.nowMs())) return;
  await move(deps, hold.accountId, { kind: 'release', category: null, quantity: 0, amountCents: hold.amountCents, cause: `released: ${ref}`, ref, holdId: hold.id });
}

/** Refuses (402) when `amountCents` could not be paid now; writes nothing unless it auto-recharges. */
export async function assertCanSpend(deps: BillingDeps, payer: Payer, what: string, amountCents: number): Promise<void> {
  if (payer.mode === 'test' || amountCents <= 0) return;
  await ensureCanPay(deps, payer, what, amountCents);
}
