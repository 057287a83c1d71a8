// Money facts as plain values (no zod): the service, the schemas and the CLI read them.
// spec: conventions 2 (cents), Errors (`budget_exceeded`, `payment_required`, `provider_error`),
// Event catalog (`billing.*`); contract §11 (usage and billing), §9 (payments/fail-next, PUT /wallet).
// The prices themselves are in prices.ts (one table).

/** contract §11: a new account starts with 2000 cents and a 10000-cent monthly limit. */
export const NEW_ACCOUNT_WALLET_CENTS = 2000;
export const NEW_ACCOUNT_SPEND_LIMIT_CENTS = 10_000;

/**
 * Decision (spec: Limits — "amounts of the monthly spend limit, wallet recharge threshold and plan
 * prices: not shown"): auto-recharge starts off, with these defaults once turned on.
 */
export const AUTO_RECHARGE_DEFAULTS = { thresholdCents: 500, amountCents: 2000 } as const;
/** Decision: bounds of a top-up, an auto-recharge amount and threshold, and the spend limit. */
export const MONEY_LIMITS = {
  minTopUpCents: 100,
  maxTopUpCents: 1_000_000,
  maxThresholdCents: 1_000_000,
  maxSpendLimitCents: 100_000_000,
} as const;

/**
 * Decision (plan prices not shown): the subscription plans and their monthly price in cents, charged
 * to the saved card at each renewal (not from the wallet, which pays usage). `free` costs nothing
 * and needs no card.
 */
export const PLANS = { free: 0, starter: 2_900, pro: 9_900 } as const;
export type Plan = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as [Plan, ...Plan[]];
export const DEFAULT_PLAN: Plan = 'free';

/** spec: Event catalog — `billing.subscription.updated` statuses. */
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Decision: a subscription period is 30 days of service clock. */
export const SUBSCRIPTION_PERIOD_SECS = 30 * 86_400;

/**
 * contract §11 ("per month"), Decision: a live number's month is 30 days of service clock from its
 * purchase; the renewal is charged from the wallet on the clock. A renewal the wallet cannot pay
 * leaves the number in place and is retried every `retrySecs` until paid (the charge is recorded
 * when paid; the next period still starts where the unpaid one did).
 */
export const NUMBER_RENEWAL = { periodSecs: 30 * 86_400, retrySecs: 86_400 } as const;

/** spec: Event catalog — `billing.wallet.credited` `kind`. */
export const CREDIT_KINDS = ['top_up', 'auto_recharge'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

/** contract §11: the sandbox card token the simulated payment provider accepts. */
export const SANDBOX_CARD_TOKEN = 'tok_visa';
/** Decision: tokens the simulated provider knows, and what they do (tok_chargeDeclined always declines). */
export const SANDBOX_DECLINED_CARD_TOKEN = 'tok_chargeDeclined';

/** The ledger's entry kinds: every movement of money is one row with its cause (append-only). */
export const LEDGER_KINDS = ['charge', 'credit', 'hold', 'release', 'refund'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** A hold is open until the action it reserved for is charged (settled) or given up (released). */
export const HOLD_STATUSES = ['open', 'settled', 'released'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/** contract §11: usage categories (the charges' categories), in the order `GET /v1/usage` lists them. */
export const USAGE_CATEGORIES = [
  'sms', 'mms', 'local_number', 'tollfree_number', 'emergency', 'voice', 'transcription', 'email',
  'brand_registration', 'brand_vetting', 'campaign_registration', 'port',
] as const;
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];
/**
 * Decision (money-api): a renewal the card refused leaves the subscription `past_due` and is tried
 * again this long after, on the service clock, until it succeeds or the plan is changed or canceled.
 */
export const SUBSCRIPTION_RETRY_SECS = 86_400;
