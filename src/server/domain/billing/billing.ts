import type { DomainDeps, DomainScheduler, DomainEvents } from '../deps.js';
import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { WalletRecord, WalletsRepo } from '../../storage/wallets-repo.js';
import type { LedgerRepo } from '../../storage/ledger-repo.js';
import type { Payments } from '../../world/payments.js';
import type { Actor } from '../actor.js';
import { conflict, validationError } from '../../errors.js';
import { assertMovesMoney } from '../test-keys.js';
import { credit, monthToDate, setBalance, walletOf } from './wallet.js';
import { NO_CARD_MESSAGE, chargeCardOrThrow } from './card-charge.js';
import type { WalletPatchBody } from '../../../api/schemas/billing.js';
import type { z } from 'zod';

// contract §11 (usage and billing), §9 (sandbox wallet and payments): the caller's billing settings
// and wallet. The money itself only moves through wallet.ts (a ledger row with each balance change)
// and, for cards, through the payment provider (card-charge.ts).

export interface BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  events: DomainEvents;
  scheduler: DomainScheduler;
  wallets: WalletsRepo;
  ledger: LedgerRepo;
  payments: Payments;
}

/** What `GET /v1/billing` shows: the wallet with its settings, and the month's spend so far. */
export interface BillingSnapshot {
  wallet: WalletRecord;
  monthToDateCents: number;
}

/**
 * Decision (spec: Authentication 2 — test keys bill nothing): a test key reads billing but may not
 * move money or change the live account's billing settings (`403 forbidden`; contract §2).
 */
export const assertLiveKey = assertMovesMoney;

/** contract §11: spend this month = charges net of refunds since the start of the UTC calendar month (service clock). */
export async function billingSnapshot(deps: Pick<BillingDeps, 'clock' | 'wallets' | 'ledger'>, accountId: string): Promise<BillingSnapshot> {
  const wallet = await walletOf(deps, accountId);
  return { wallet, monthToDateCents: await monthToDate(deps, wallet, deps.clock.nowMs()) };
}

/** GET /v1/billing. */
export async function getBilling(deps: BillingDeps, actor: Actor): Promise<BillingSnapshot> {
  // walletOf may open the wallet of an account older than wallets: a write, so in a transaction.
  return await deps.uow.write(async (tx) => await billingSnapshot(tx, actor.account.id));
}

/** The saved card's token, or 409 naming the call that saves one. */
export function savedCard(wallet: WalletRecord): string {
  if (!wallet.cardToken) throw conflict(NO_CARD_MESSAGE);
  return wallet.cardToken;
}

/**
 * POST /v1/billing/wallet/top-up: the saved card is charged, then the wallet credited (`top_up`,
 * `billing.wallet.credited`). No card → 409; declined → 402 `payment_required`; the provider failing
 * → 502 `provider_error`; in every refusal nothing is credited.
 */
export async function topUp(deps: BillingDeps, actor: Actor, amountCents: number): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    const token = savedCard(await walletOf(tx, accountId));
    const chargeId = chargeCardOrThrow(tx, `top-up:${accountId}:${amountCents}`, token, amountCents, 'top-up refused');
    await credit(tx, accountId, amountCents, 'top_up', `top-up (card charge ${chargeId})`);
    return await billingSnapshot(tx, accountId);
  });
}

/**
 * PATCH /v1/billing/wallet {autoRecharge}: fields given are changed, others kept. Enabling needs a
 * saved card (409 otherwise: auto-recharge charges it). Lowering the threshold below the balance
 * re-arms the low-balance event (spec: once per crossing).
 */
export async function updateWalletSettings(deps: BillingDeps, actor: Actor, body: z.infer<typeof WalletPatchBody>): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    const wallet = await walletOf(tx, accountId);
    const a = body.autoRecharge;
    if (a.enabled === true && !wallet.cardToken) throw conflict(`auto-recharge charges the saved card; ${NO_CARD_MESSAGE}`);
    const thresholdCents = a.thresholdCents ?? wallet.thresholdCents;
    await tx.wallets.update(accountId, {
      autoRechargeEnabled: a.enabled ?? wallet.autoRechargeEnabled,
      thresholdCents,
      rechargeAmountCents: a.amountCents ?? wallet.rechargeAmountCents,
      lowBalanceArmed: wallet.lowBalanceArmed || wallet.balanceCents >= thresholdCents,
      updatedAt: tx.clock.nowMs(),
    });
    return billingSnapshot(tx, accountId);
  });
}

/** PATCH /v1/billing {spendLimitCents}: the monthly limit the charging path checks (`budget_exceeded`). */
export async function updateSpendLimit(deps: BillingDeps, actor: Actor, spendLimitCents: number): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    await walletOf(tx, accountId);
    await tx.wallets.update(accountId, { spendLimitCents, updatedAt: tx.clock.nowMs() });
    return billingSnapshot(tx, accountId);
  });
}

/**
 * PUT /v1/billing/card {token}: saves a card the provider knows (contract §11: sandbox tokens
 * `tok_visa`, `tok_chargeDeclined`), replacing the previous one; stores the token and its last four
 * digits, never a card number. An unknown token → `validation_error` on `["body","token"]`.
 */
export async function saveCard(deps: Pick<DomainDeps, 'uow' | 'payments'>, actor: Actor, token: string): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  // The provider is asked with no transaction open.
  const last4 = await deps.payments.cardLast4(token);
  if (last4 === null) throw validationError(['body', 'token'], 'the payment provider does not know this card token (sandbox: tok_visa, tok_chargeDeclined)');
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    await walletOf(tx, accountId);
    await tx.wallets.update(accountId, { cardToken: token, cardLast4: last4, updatedAt: tx.clock.nowMs() });
    return billingSnapshot(tx, accountId);
  });
}

/**
 * contract §9 `PUT /v1/sandbox/wallet {balanceCents}`: the balance set through a ledger row (cause
 * `sandbox`), so the ledger still sums to it. contract §2: the wallet is live money, so a live key
 * only; each account sets its own (a sub-account's live key too: no other account moves).
 */
export async function sandboxSetBalance(deps: BillingDeps, actor: Actor, balanceCents: number): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  return await deps.uow.write(async (tx) => {
    await setBalance(tx, actor.account.id, balanceCents);
    return await billingSnapshot(tx, actor.account.id);
  });
}

/** contract §9 `POST /v1/sandbox/payments/fail-next`: the provider's next charge fails once (any account). */
export async function sandboxFailNextPayment(deps: Pick<BillingDeps, 'payments'>): Promise<void> {
  await deps.payments.failNext();
}
