import { defineVerb } from '../../verb.js';
import { billingEndpoints } from '../../../api/resources/billing.js';
import { PLAN_NAMES } from '../../../api/values/billing.js';

// svc billing: contract §11. cli.md "Money": dollars in, dollars in tables, the API's cents elsewhere.
export const verbs = [
  defineVerb({
    name: 'show',
    summary: 'Show the plan, subscription, wallet balance, auto-recharge, card, spend limit and month-to-date spend',
    details: `On a terminal amounts show in dollars ($20.00); -o json, yaml, ndjson and csv (and piped output)
keep the API's integer cents (balanceCents, spendLimitCents, monthToDateCents).`,
    examples: ['svc billing show', 'svc billing show -o json'],
    api: billingEndpoints.get,
    run: async () => (await import('./billing.run.js')).runShowBilling,
  }),
  defineVerb({
    name: 'top-up',
    summary: 'Charge the saved card and add the amount to the prepaid wallet',
    args: [{ name: 'amount', help: 'dollars: 20, 20.00 or $20' }],
    flags: [{ flags: '--idempotency-key <key>', help: 'a retry with the same key charges once; generated when omitted' }],
    details: 'Asks before charging the card (--yes skips). Needs a saved card (svc billing card <token>).',
    examples: ['svc billing top-up 20', "svc billing top-up '$50.00' --yes"],
    prompts: true,
    changes: true,
    api: billingEndpoints.topUp,
    run: async () => (await import('./billing.run.js')).runTopUp,
  }),
  defineVerb({
    name: 'auto-recharge',
    summary: 'Turn wallet auto-recharge on or off, and set when it recharges and by how much',
    flags: [
      { flags: '--enable', help: 'recharge from the saved card when the balance falls below the threshold' },
      { flags: '--disable', help: 'never recharge on its own' },
      { flags: '--threshold <amount>', help: 'recharge when the balance falls below this (dollars)' },
      { flags: '--amount <amount>', help: 'how much each recharge adds (dollars)' },
    ],
    details: `Give --enable or --disable, --threshold and --amount alone change the settings as they are.
Auto-recharge charges the saved card (svc billing card <token>).`,
    examples: ['svc billing auto-recharge --enable --threshold 5 --amount 20', 'svc billing auto-recharge --threshold 10', 'svc billing auto-recharge --disable'],
    changes: true,
    api: billingEndpoints.autoRecharge,
    run: async () => (await import('./billing.run.js')).runAutoRecharge,
  }),
  defineVerb({
    name: 'limit',
    summary: 'Set the monthly spend limit (a billable action past it is refused: exit 7)',
    args: [{ name: 'amount', help: 'dollars: 100, 100.00 or $100' }],
    details: 'Asks first, showing the limit now and the spend so far this month (--yes skips).',
    examples: ['svc billing limit 250', "svc billing limit '$1,000' --yes"],
    prompts: true,
    changes: true,
    api: billingEndpoints.limit,
    run: async () => (await import('./billing.run.js')).runLimit,
  }),
  defineVerb({
    name: 'subscribe',
    summary: 'Subscribe to a plan, or change plan (the price is shown and confirmed)',
    args: [{ name: 'plan', help: 'the plan', choices: PLAN_NAMES }],
    details: 'A paid plan is charged to the saved card each 30-day period (svc billing card <token>).',
    examples: ['svc billing subscribe starter', 'svc billing subscribe pro --yes'],
    prompts: true,
    changes: true,
    api: billingEndpoints.subscribe,
    run: async () => (await import('./billing.run.js')).runSubscribe,
  }),
  defineVerb({
    name: 'cancel',
    summary: 'Cancel the subscription (asks first)',
    examples: ['svc billing cancel', 'svc billing cancel --yes'],
    prompts: true,
    changes: true,
    api: billingEndpoints.cancel,
    run: async () => (await import('./billing.run.js')).runCancelSubscription,
  }),
  defineVerb({
    name: 'card',
    summary: 'Save the card that pays top-ups, auto-recharges and the subscription (a payment token)',
    args: [{ name: 'token', help: 'a card token from the payment provider (sandbox: tok_visa)' }],
    details: 'The token stands for the card; card numbers never pass through svc.',
    examples: ['svc billing card tok_visa'],
    changes: true,
    api: billingEndpoints.card,
    run: async () => (await import('./billing.run.js')).runCard,
  }),
];
