import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BillingPatchBody,
  BillingSchema,
  CardBody,
  SubscriptionBody,
  TopUpBody,
  UsageQuery,
  UsageSchema,
  WalletPatchBody,
} from '../../api/schemas/billing.js';
import {
  AUTO_RECHARGE_DEFAULTS,
  PLANS,
  SANDBOX_CARD_TOKEN,
  SANDBOX_DECLINED_CARD_TOKEN,
  SUBSCRIPTION_PERIOD_SECS,
  SUBSCRIPTION_RETRY_SECS,
} from '../../api/values/billing.js';
import type { ServiceDeps } from '../deps.js';
import { getBilling, saveCard, topUp, updateSpendLimit, updateWalletSettings } from '../domain/billing/billing.js';
import { cancelSubscription, changePlan } from '../domain/billing/subscription.js';
import { getUsage } from '../domain/billing/usage.js';
import { billingView } from '../views/billing.js';
import { usageView } from '../views/usage.js';
import { commitOnce } from '../http/idempotency.js';

// contract §11 (usage and billing). Decisions are in the descriptions, so they land in /openapi.json.

const TEST_KEYS = 'A test key reads billing but changes nothing: every write here with a test key is `403 forbidden` (test keys move no money).';
const NO_CARD = 'Without a saved card → `409 conflict` ("save a card first: PUT /v1/billing/card").';
const CARD_REFUSALS = 'The card declined → `402 payment_required`; the payment provider failing → `502 provider_error` (safe to retry); either way nothing changes.';
const plans = Object.entries(PLANS).map(([p, c]) => `\`${p}\` ${c} cents`).join(', ');

export function billingRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];

  r.get(
    '/v1/billing',
    {
      schema: {
        tags,
        summary: 'The plan, subscription, wallet, spend limit and spend this month',
        description: [
          '`monthToDateCents`: charges net of refunds since the start of the current UTC calendar month of the service clock;',
          'billable live actions that would pass `spendLimitCents` are refused with `402 budget_exceeded`. `hasCard`: a card is',
          'saved, `card.last4` its last four digits (its token is never shown). Any key, test keys included.',
        ].join('\n'),
        response: { 200: BillingSchema },
      },
    },
    // A write, not a read: getBilling may open the wallet of an account older than wallets.
    async (req) => billingView(await deps.uow.write(async (tx) => await getBilling(tx, req.auth))),
  );

  r.post(
    '/v1/billing/wallet/top-up',
    {
      schema: {
        tags,
        summary: 'Charge the saved card and credit the wallet',
        description: [
          'Charges `amountCents` to the saved card and credits the wallet (`billing.wallet.credited`, kind `top_up`); answers the Billing.',
          NO_CARD,
          CARD_REFUSALS,
          TEST_KEYS,
          'Accepts `Idempotency-Key`: a retry with the same key does not charge again.',
        ].join('\n'),
        body: TopUpBody,
        response: { 200: BillingSchema },
      },
    },
    async (req) => commitOnce(deps, req, 200, async (tx) => billingView(await topUp(tx, req.auth, req.body.amountCents))),
  );

  r.patch(
    '/v1/billing/wallet',
    {
      schema: {
        tags,
        summary: 'Auto-recharge settings',
        description: [
          'Fields given change, others stay. When on, a billable action the balance would not cover first charges the saved card',
          `\`amountCents\` (default ${AUTO_RECHARGE_DEFAULTS.amountCents}) when the balance is below \`thresholdCents\``,
          `(default ${AUTO_RECHARGE_DEFAULTS.thresholdCents}). Turning it on needs a saved card: otherwise \`409 conflict\`.`,
          TEST_KEYS,
        ].join('\n'),
        body: WalletPatchBody,
        response: { 200: BillingSchema },
      },
    },
    async (req) => billingView((await deps.uow.write(async (tx) => await updateWalletSettings(tx, req.auth, req.body)))),
  );

  r.patch(
    '/v1/billing',
    {
      schema: {
        tags,
        summary: 'The monthly spend limit',
        description: ['`spendLimitCents`: billable live actions that would take this month\'s spend past it are refused (`402 budget_exceeded`).', TEST_KEYS].join('\n'),
        body: BillingPatchBody,
        response: { 200: BillingSchema },
      },
    },
    async (req) => billingView((await deps.uow.write(async (tx) => await updateSpendLimit(tx, req.auth, req.body.spendLimitCents)))),
  );

  r.put(
    '/v1/billing/card',
    {
      schema: {
        tags,
        summary: 'Save the card the wallet and subscription are charged to',
        description: [
          `Sandbox tokens: \`${SANDBOX_CARD_TOKEN}\` (charges succeed), \`${SANDBOX_DECLINED_CARD_TOKEN}\` (saved, but every charge is declined).`,
          'Any other token → `validation_error` on `["body","token"]`. Replaces the saved card; only the token and its last four digits are kept.',
          TEST_KEYS,
        ].join('\n'),
        body: CardBody,
        response: { 200: BillingSchema },
      },
    },
    async (req) => billingView(await saveCard(deps, req.auth, req.body.token)),
  );

  r.put(
    '/v1/billing/subscription',
    {
      schema: {
        tags,
        summary: 'Subscribe to a plan',
        description: [
          `Plans and their price per ${SUBSCRIPTION_PERIOD_SECS / 86_400}-day period (charged to the saved card, not the wallet): ${plans}.`,
          'A paid plan is charged in full at once (no proration, no refund of the previous plan) and starts a new period:',
          '`currentPeriodEnd` = now + the period, renewed then on the service clock. `free` applies at once (no refund).',
          `The same plan while \`active\` changes nothing; while \`past_due\` it pays now and becomes \`active\`; while \`canceled\``,
          'within its paid period it resumes without a charge.',
          `A renewal the card refuses makes the subscription \`past_due\`; it is tried again every ${SUBSCRIPTION_RETRY_SECS / 3600} h until paid.`,
          NO_CARD,
          CARD_REFUSALS,
          '`billing.subscription.updated` `{status, plan, currentPeriodEnd, at}` on a change of status or plan.',
          TEST_KEYS,
        ].join('\n'),
        body: SubscriptionBody,
        response: { 200: BillingSchema },
      },
    },
    async (req) => billingView((await deps.uow.write(async (tx) => await changePlan(tx, req.auth, req.body.plan)))),
  );

  r.delete(
    '/v1/billing/subscription',
    {
      schema: {
        tags,
        summary: 'Cancel the subscription at the end of its period',
        description: [
          'Status `canceled` at once; the paid plan stays until `currentPeriodEnd`, then the plan is `free` (nothing is refunded).',
          'A `past_due` subscription (its period unpaid) drops to `free` at once. On `free` → `409 conflict`; canceling again changes nothing.',
          'Emits `billing.subscription.updated`. Answers the Billing.',
          TEST_KEYS,
        ].join('\n'),
        response: { 200: BillingSchema },
      },
    },
    async (req) => billingView((await deps.uow.write(async (tx) => await cancelSubscription(tx, req.auth)))),
  );

  r.get(
    '/v1/usage',
    {
      schema: {
        tags,
        summary: 'Usage per category over a time range',
        description: [
          'Charges net of refunds per category in [`from`, `to`): `from` defaults to the start of the current UTC calendar month of',
          'the service clock, `to` to now (then inclusive of now); `from` not before `to` → `validation_error` on `["query","from"]`. Only categories with',
          'usage are listed, in a fixed order; `totalCents` is the sum of the lines. Test keys bill nothing, so this is live usage.',
        ].join('\n'),
        querystring: UsageQuery,
        response: { 200: UsageSchema },
      },
    },
    async (req) => usageView(await deps.uow.read((tx) => getUsage(tx, req.auth, req.query))),
  );
}
