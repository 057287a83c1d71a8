import { outsideFirst } from '../outside-first.js';
import type { DomainDeps, TxDeps, DomainEvents } from '../deps.js';
import type { Clock } from '../../clock.js';
import type { WalletRecord, WalletsRepo } from '../../storage/wallets-repo.js';
import type { LedgerRepo } from '../../storage/ledger-repo.js';
import type { Payments, PaymentResult } from '../../world/payments.js';
import type { CreditKind, LedgerKind, UsageCategory } from '../../../api/values/billing.js';
import { AUTO_RECHARGE_DEFAULTS, DEFAULT_PLAN, NEW_ACCOUNT_SPEND_LIMIT_CENTS, NEW_ACCOUNT_WALLET_CENTS } from '../../../api/values/billing.js';
import { newId } from '../../ids.js';
import { monthStart } from '../month.js';

// contract §11: an account's wallet. Every change of its balance is ONE function here (`move`),
// which writes the ledger row with the balance after it and keeps the low-balance crossing, so the
// balance is always the sum of the account's ledger (append-only) and the event fires once per
// crossing. Everything runs inside the caller's transaction (the action the money is for).

export interface WalletDeps {
  /** Outside acts done before this write (outside-first.ts): a money move may ask for an auto-recharge. */
  prior: ReadonlyMap<string, unknown>;
  /** An outside act a money move calls for after it commits (an auto-recharge at a crossing). */
  thenOutside: TxDeps['thenOutside'];
  clock: Clock;
  wallets: WalletsRepo;
  ledger: LedgerRepo;
  events: DomainEvents;
  payments: Payments;
}

/** contract §11: a new account's wallet — 2000 cents (a ledger credit), a 10000-cent monthly limit. */
export async function openWallet(deps: Pick<WalletDeps, 'clock' | 'wallets' | 'ledger'>, accountId: string): Promise<WalletRecord> {
  const now = deps.clock.nowMs();
  const wallet: WalletRecord = {
    accountId,
    balanceCents: NEW_ACCOUNT_WALLET_CENTS,
    autoRechargeEnabled: false,
    thresholdCents: AUTO_RECHARGE_DEFAULTS.thresholdCents,
    rechargeAmountCents: AUTO_RECHARGE_DEFAULTS.amountCents,
    lowBalanceArmed: true,
    spendLimitCents: NEW_ACCOUNT_SPEND_LIMIT_CENTS,
    cardToken: null,
    cardLast4: null,
    plan: DEFAULT_PLAN,
    subscriptionStatus: 'active',
    currentPeriodEnd: null,
    spendMonth: monthStart(now),
    spendMonthCents: 0,
    updatedAt: now,
  };
  await deps.wallets.insert(wallet);
  await deps.ledger.append({
    id: newId('led'), accountId, kind: 'credit', category: null, quantity: 0, amountCents: NEW_ACCOUNT_WALLET_CENTS,
    balanceAfterCents: NEW_ACCOUNT_WALLET_CENTS, cause: 'new account credit', ref: null, holdId: null, createdAt: now,
  });
  return wallet;
}

/** The account's wallet (every account has one: migration 12 and openWallet at creation). */
export async function walletOf(deps: Pick<WalletDeps, 'clock' | 'wallets' | 'ledger'>, accountId: string): Promise<WalletRecord> {
  return await deps.wallets.get(accountId) ?? await openWallet(deps, accountId);
}

export interface Movement {
  kind: LedgerKind;
  category: UsageCategory | null;
  quantity: number;
  /** Signed: negative takes from the balance. */
  amountCents: number;
  cause: string;
  ref: string | null;
  holdId: string | null;
}

/**
 * The one place a balance changes: the wallet row and its ledger row, then the low-balance rule
 * (spec: Event catalog — `billing.wallet.low_balance` once per crossing below the threshold, with
 * `autoRechargeStarted`; re-armed when a credit lifts the balance back to the threshold). A movement
 * that would take the balance below zero is a bug in the caller (charging.ts checks first): it throws
 * before writing, and the wallet's CHECK would refuse it anyway.
 */
export async function move(deps: WalletDeps, accountId: string, m: Movement): Promise<WalletRecord> {
  const wallet = await walletOf(deps, accountId);
  const balance = wallet.balanceCents + m.amountCents;
  if (balance < 0) throw new Error(`wallet ${accountId}: ${m.cause} would take the balance to ${balance}`);
  const now = deps.clock.nowMs();
  // Usage (a charge or refund with a category) counts toward the month's spend, kept on the wallet.
  const usage = (m.kind === 'charge' || m.kind === 'refund') && m.category !== null;
  const month = monthStart(now);
  const spend = usage ? { spendMonth: month, spendMonthCents: await monthToDate(deps, wallet, now) - m.amountCents } : {};
  await deps.ledger.append({ id: newId('led'), accountId, ...m, balanceAfterCents: balance, createdAt: now });
  let after: WalletRecord = { ...wallet, ...spend, balanceCents: balance, updatedAt: now };
  if (balance >= wallet.thresholdCents && !wallet.lowBalanceArmed) after = { ...after, lowBalanceArmed: true };
  const crossed = m.amountCents < 0 && wallet.lowBalanceArmed && wallet.balanceCents >= wallet.thresholdCents && balance < wallet.thresholdCents;
  if (crossed) after = { ...after, lowBalanceArmed: false };
  await deps.wallets.update(accountId, { ...spend, balanceCents: after.balanceCents, lowBalanceArmed: after.lowBalanceArmed, updatedAt: now });
  if (!crossed) return after;
  const autoRechargeStarted = canAutoRecharge(after);
  await deps.events.emit(accountId, 'billing.wallet.low_balance', {
    balanceCents: balance,
    thresholdCents: wallet.thresholdCents,
    autoRechargeStarted,
    at: new Date(now).toISOString(),
  });
  // A failed recharge leaves the wallet low; the next charge that cannot be covered tries again.
  // Called for by the crossing, done once this write has committed (the write does not wait on it).
  if (autoRechargeStarted) deps.thenOutside(rechargeKey(accountId), (d) => rechargeNow(d, accountId, after.rechargeAmountCents));
  return await walletOf(deps, accountId);
}

/**
 * contract §11: the usage charged in the current month (UTC, service clock), net of refunds — what
 * the spend limit is checked against. Read from the wallet's counter; a wallet whose counter is of
 * another month (or never counted) is counted from the ledger once.
 */
export async function monthToDate(deps: Pick<WalletDeps, 'ledger'>, wallet: WalletRecord, nowMs: number): Promise<number> {
  const month = monthStart(nowMs);
  return wallet.spendMonth === month ? wallet.spendMonthCents : await deps.ledger.chargedSince(wallet.accountId, month);
}

export const canAutoRecharge = (w: WalletRecord): boolean => w.autoRechargeEnabled && w.cardToken !== null;

/** spec: Event catalog — `billing.wallet.credited {kind, amountCents, balanceCents, at}` to the paying account. */
export async function credit(deps: WalletDeps, accountId: string, amountCents: number, kind: CreditKind, cause: string, ref: string | null = null): Promise<WalletRecord> {
  const after = await move(deps, accountId, { kind: 'credit', category: null, quantity: 0, amountCents, cause, ref, holdId: null });
  await deps.events.emit(accountId, 'billing.wallet.credited', {
    kind,
    amountCents,
    balanceCents: after.balanceCents,
    at: new Date(after.updatedAt).toISOString(),
  });
  return after;
}

/**
 * The auto-recharge itself, an outside act (done with no transaction open): the saved card is charged
 * `amountCents`, then the wallet credited (kind `auto_recharge`) in a transaction of its own, so the
 * money charged is in the wallet whatever the write that called for it does next. Returns the
 * provider's answer.
 */
async function rechargeNow(deps: DomainDeps, accountId: string, amountCents: number): Promise<PaymentResult> {
  const wallet = await deps.uow.read((r) => r.wallets.get(accountId));
  if (!wallet?.cardToken) return { ok: false, reason: 'declined', message: 'no card is saved' };
  const payment = await deps.payments.charge(wallet.cardToken, amountCents);
  if (payment.ok) await deps.uow.write((w) => credit(w, accountId, amountCents, 'auto_recharge', `auto-recharge (${payment.chargeId})`, payment.chargeId));
  return payment;
}

const rechargeKey = (accountId: string): string => `auto-recharge:${accountId}`;

/**
 * An auto-recharge a write needs before it can go on (a charge the balance cannot cover,
 * outside-first.ts): the first pass asks for it; the write then runs again and reads the wallet.
 */
export function rechargeFromCard(tx: Pick<TxDeps, 'prior'>, accountId: string, amountCents: number): PaymentResult {
  return outsideFirst(tx, rechargeKey(accountId), (deps) => rechargeNow(deps, accountId, amountCents));
}

/**
 * contract §9 `PUT /v1/sandbox/wallet {balanceCents}`: the balance set as a ledger row (cause
 * `sandbox`), so the ledger still sums to it; a drop below the threshold is a crossing like any other.
 */
export async function setBalance(deps: WalletDeps, accountId: string, balanceCents: number): Promise<WalletRecord> {
  const wallet = await walletOf(deps, accountId);
  const delta = balanceCents - wallet.balanceCents;
  if (delta === 0) return wallet;
  return await move(deps, accountId, { kind: delta > 0 ? 'credit' : 'charge', category: null, quantity: 0, amountCents: delta, cause: 'sandbox: wallet set', ref: null, holdId: null });
}
