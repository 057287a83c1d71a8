import type { DomainDeps } from '../deps.js';
import { iso, isoOrNull } from '../../clock.js';
import type { WalletPatch, WalletRecord } from '../../storage/wallets-repo.js';
import type { Actor } from '../actor.js';
import { conflict } from '../../errors.js';
import { PLANS, SUBSCRIPTION_PERIOD_SECS, SUBSCRIPTION_RETRY_SECS, type Plan } from '../../../api/values/billing.js';
import { walletOf } from './wallet.js';
import { chargeCardOrThrow } from './card-charge.js';
import { assertLiveKey, billingSnapshot, savedCard, type BillingDeps, type BillingSnapshot } from './billing.js';

// contract §11 (subscriptions), spec: Event catalog `billing.subscription.updated`. The plan's price
// (PLANS) is charged to the saved card — not the wallet, which pays usage — at once on a paid plan,
// then at every period end by a scheduler job on the service clock:
//
//   free ──PUT paid (card charged)──▶ active ──period end, card charged──▶ active (next period)
//                                      │  └──period end, card refused──▶ past_due ──retry daily / PUT, paid──▶ active
//                                      └──DELETE──▶ canceled ──period end──▶ plan free (still canceled)
//
// Decisions (spec silent): a plan change is charged in full at once and starts a new period (no
// proration, no refund); `PUT {plan: "free"}` downgrades at once (no refund); DELETE keeps the paid
// plan until the period end (a past_due subscription, unpaid, drops to free at once); PUT of the
// canceled plan before its period end resumes it without a charge. The event fires on a change of
// status or plan, and carries `plan` besides the catalog's fields.

export const JOB_SUBSCRIPTION_RENEW = 'billing.subscription.renew';
interface RenewPayload {
  accountId: string;
  /** The period end the job was scheduled for: a job whose period was replaced since does nothing. */
  periodEnd: number;
}

const periodMs = SUBSCRIPTION_PERIOD_SECS * 1000;

/** Saves the subscription change and emits the event when the status or the plan changed. */
async function applySubscription(deps: BillingDeps, before: WalletRecord, change: Pick<WalletPatch, 'plan' | 'subscriptionStatus' | 'currentPeriodEnd'>): Promise<void> {
  const now = deps.clock.nowMs();
  await deps.wallets.update(before.accountId, { ...change, updatedAt: now });
  const plan = change.plan ?? before.plan;
  const status = change.subscriptionStatus ?? before.subscriptionStatus;
  const currentPeriodEnd = change.currentPeriodEnd === undefined ? before.currentPeriodEnd : change.currentPeriodEnd;
  if (plan === before.plan && status === before.subscriptionStatus) return;
  // spec: Event catalog — billing.subscription.updated {status, currentPeriodEnd, at} (+ plan).
  await deps.events.emit(before.accountId, 'billing.subscription.updated', { status, plan, currentPeriodEnd: isoOrNull(currentPeriodEnd), at: iso(now) });
}

async function scheduleRenewal(deps: BillingDeps, accountId: string, periodEnd: number, runAt: number = periodEnd): Promise<void> {
  await deps.scheduler.schedule(JOB_SUBSCRIPTION_RENEW, runAt, { accountId, periodEnd } satisfies RenewPayload);
}

/**
 * PUT /v1/billing/subscription {plan}. A paid plan needs a saved card (409) and is charged at once:
 * declined → 402 `payment_required`, provider failure → 502 `provider_error`, and nothing changes.
 * The same plan while `active` changes nothing; while `past_due` it pays now and becomes `active`.
 */
export async function changePlan(deps: BillingDeps, actor: Actor, plan: Plan): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    const w = await walletOf(tx, accountId);
    const now = tx.clock.nowMs();
    if (plan === w.plan && w.subscriptionStatus === 'active') return billingSnapshot(tx, accountId);
    if (PLANS[plan] === 0) {
      await applySubscription(tx, w, { plan, subscriptionStatus: 'active', currentPeriodEnd: null });
    } else if (plan === w.plan && w.subscriptionStatus === 'canceled' && w.currentPeriodEnd !== null && w.currentPeriodEnd > now) {
      // Resumed within a paid period: its renewal job is still scheduled at currentPeriodEnd.
      await applySubscription(tx, w, { subscriptionStatus: 'active' });
    } else {
      chargeCardOrThrow(tx, `subscription:${accountId}:${plan}`, savedCard(w), PLANS[plan], `subscription to ${plan} refused`);
      const periodEnd = now + periodMs;
      await applySubscription(tx, w, { plan, subscriptionStatus: 'active', currentPeriodEnd: periodEnd });
      await scheduleRenewal(tx, accountId, periodEnd);
    }
    return billingSnapshot(tx, accountId);
  });
}

/**
 * DELETE /v1/billing/subscription: `canceled` now, the paid plan kept until `currentPeriodEnd`, then
 * `free`. A `past_due` subscription (its period unpaid) drops to `free` at once. On `free` → 409.
 * Canceling a canceled subscription changes nothing.
 */
export async function cancelSubscription(deps: BillingDeps, actor: Actor): Promise<BillingSnapshot> {
  assertLiveKey(actor);
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    const w = await walletOf(tx, accountId);
    if (w.subscriptionStatus === 'canceled') return billingSnapshot(tx, accountId);
    if (PLANS[w.plan] === 0) throw conflict('the free plan has no subscription to cancel');
    if (w.subscriptionStatus === 'past_due') await applySubscription(tx, w, { plan: 'free', subscriptionStatus: 'canceled', currentPeriodEnd: null });
    else await applySubscription(tx, w, { subscriptionStatus: 'canceled' });
    return billingSnapshot(tx, accountId);
  });
}

/**
 * The period end on the service clock: a canceled subscription drops to `free`; an active or
 * past_due one charges the card for the next period. Refused (declined, provider failure, no card)
 * → `past_due`, tried again SUBSCRIPTION_RETRY_SECS later; paid → `active`, the next period from the
 * old end (on time) or from now (recovering from past_due).
 */
export async function renewSubscription(deps: Pick<DomainDeps, 'uow' | 'payments'>, p: RenewPayload): Promise<void> {
  const due = (w: WalletRecord | undefined): w is WalletRecord => !!w && w.currentPeriodEnd === p.periodEnd && PLANS[w.plan] !== 0;
  const before = await deps.uow.read((tx) => tx.wallets.get(p.accountId));
  if (!due(before)) return;
  // The card is charged with no transaction open (the provider is the outside world); the
  // renewal is then written if the wallet still waits for it. The job is removed after this returns:
  // a crash in between renews again on restart (the provider's charge is not idempotent here).
  const paid = before.subscriptionStatus !== 'canceled' && before.cardToken ? (await deps.payments.charge(before.cardToken, PLANS[before.plan])).ok : false;
  await deps.uow.write(async (tx) => {
    const w = await tx.wallets.get(p.accountId);
    if (!due(w)) return;
    if (w.subscriptionStatus === 'canceled') {
      await applySubscription(tx, w, { plan: 'free', currentPeriodEnd: null });
      return;
    }
    const now = tx.clock.nowMs();
    if (!paid) {
      await applySubscription(tx, w, { subscriptionStatus: 'past_due' });
      await scheduleRenewal(tx, w.accountId, p.periodEnd, now + SUBSCRIPTION_RETRY_SECS * 1000);
      return;
    }
    const periodEnd = (w.subscriptionStatus === 'active' ? p.periodEnd : now) + periodMs;
    await applySubscription(tx, w, { subscriptionStatus: 'active', currentPeriodEnd: periodEnd });
    await scheduleRenewal(tx, w.accountId, periodEnd);
  });
}

export function registerBillingJobs(deps: DomainDeps): void {
  deps.scheduler.registerOutside(JOB_SUBSCRIPTION_RENEW, async (p: RenewPayload) => await renewSubscription(deps, p), 'subscriptions renewed');
}
