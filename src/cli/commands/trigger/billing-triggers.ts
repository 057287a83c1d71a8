import { defineVerb } from '../../verb.js';
import { billingEndpoints } from '../../../api/resources/billing.js';
import { sandboxBillingEndpoints } from '../../../api/resources/sandbox-billing.js';
import { PLAN_NAMES, SUBSCRIPTION_STATUSES } from '../../../api/values/billing.js';

// contract §9 and §11: money's outside world — the wallet set to a balance, a card charged, the
// payment provider failing once, a subscription's renewal on the sandbox clock.

const verbs = () => import('./billing-triggers.run.js');

export const lowBalanceTrigger = defineVerb({
  name: 'billing.wallet.low_balance',
  summary: 'The wallet drops below its recharge threshold: billing.wallet.low_balance (once per crossing)',
  flags: [{ flags: '--balance <amount>', help: 'the balance it drops to, in dollars (default: 1 cent below the threshold)' }],
  details: [
    'Sets the sandbox wallet (PUT /v1/sandbox/wallet) at the threshold, then below it: one crossing,',
    'so one event, with autoRechargeStarted true when auto-recharge is on and a card is saved (the',
    'recharge then credits the wallet: billing.wallet.credited). Prints the billing after it.',
  ].join('\n'),
  examples: ['svc trigger billing.wallet.low_balance', 'svc trigger billing.wallet.low_balance --balance 0'],
  changes: true,
  api: sandboxBillingEndpoints.wallet,
  run: async () => (await verbs()).runLowBalance,
});

export const creditedTrigger = defineVerb({
  name: 'billing.wallet.credited',
  summary: 'A top-up with the saved card lands: billing.wallet.credited (kind top_up)',
  flags: [{ flags: '--amount <amount>', help: 'dollars', default: '20' }],
  details: 'Charges the saved card (svc billing card tok_visa) as `svc billing top-up` does, without asking.',
  examples: ['svc trigger billing.wallet.credited', 'svc trigger billing.wallet.credited --amount 5'],
  changes: true,
  api: billingEndpoints.topUp,
  run: async () => (await verbs()).runCredited,
});

export const subscriptionUpdatedTrigger = defineVerb({
  name: 'billing.subscription.updated',
  summary: 'The subscription changes status: billing.subscription.updated',
  flags: [
    { flags: '--status <status>', help: 'the status it moves to', choices: SUBSCRIPTION_STATUSES, required: true },
    { flags: '--plan <plan>', help: 'with --status active: the plan subscribed to', choices: PLAN_NAMES, default: 'starter' },
  ],
  details: [
    'active: subscribes to --plan (the saved card pays). past_due: the payment provider fails the',
    'next charge (payments/fail-next) and the sandbox clock is advanced to the end of the paid period,',
    'so the renewal is declined. canceled: cancels the subscription.',
  ].join('\n'),
  examples: ['svc trigger billing.subscription.updated --status active --plan pro', 'svc trigger billing.subscription.updated --status past_due'],
  changes: true,
  api: billingEndpoints.subscribe,
  run: async () => (await verbs()).runSubscriptionUpdated,
});

export const failNextTrigger = defineVerb({
  name: 'payments.fail-next',
  summary: 'The payment provider fails the next card charge (a top-up, an auto-recharge or a renewal)',
  details: [
    'The next card charge of the service fails as a provider outage (502 provider_error) and credits',
    'nothing; the one after goes through. It shows on charges nobody retries: an auto-recharge at a',
    'low-balance crossing, a renewal (svc clock advance). svc retries a 502 with the same',
    'Idempotency-Key, so `svc billing top-up` goes through on its second try.',
  ].join('\n'),
  examples: ['svc trigger payments.fail-next && svc trigger billing.wallet.low_balance'],
  changes: true,
  api: sandboxBillingEndpoints.failNext,
  run: async () => (await verbs()).runFailNext,
});
