import { z } from 'zod';
import { Timestamp } from './common.js';
import {
  CREDIT_KINDS,
  MONEY_LIMITS,
  PLAN_NAMES,
  SUBSCRIPTION_STATUSES,
  USAGE_CATEGORIES,
} from '../values/billing.js';

// contract §11 (usage and billing), §9 (sandbox wallet and payments). All amounts are integer cents
// (spec: convention 2).

const Cents = z.number().int();
export const AutoRechargeSchema = z
  .object({ enabled: z.boolean(), thresholdCents: Cents, amountCents: Cents })
  .meta({ id: 'AutoRecharge' });
export const BillingSchema = z
  .object({
    plan: z.enum(PLAN_NAMES),
    subscription: z.object({ status: z.enum(SUBSCRIPTION_STATUSES), currentPeriodEnd: Timestamp.nullable() }),
    wallet: z.object({
      balanceCents: Cents,
      autoRecharge: AutoRechargeSchema,
      hasCard: z.boolean(),
      // People tell their cards apart by the last four digits (the provider's token is never shown).
      card: z.object({ last4: z.string().regex(/^\d{4}$/) }).nullable().describe('the saved card (its last four digits), or null'),
    }),
    spendLimitCents: Cents,
    monthToDateCents: Cents,
  })
  .meta({ id: 'Billing' });
export type Billing = z.infer<typeof BillingSchema>;

export const UsageQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional().describe('Start (inclusive); default the start of the current month (UTC, service clock)'),
  to: z.iso.datetime({ offset: true }).optional().describe('End (exclusive); default now'),
});
export const UsageSchema = z
  .object({
    data: z.array(z.object({ category: z.enum(USAGE_CATEGORIES), quantity: z.number().int(), amountCents: Cents })),
    totalCents: Cents,
    from: Timestamp,
    to: Timestamp,
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof UsageSchema>;

export const TopUpBody = z
  .strictObject({ amountCents: z.number().int().min(MONEY_LIMITS.minTopUpCents).max(MONEY_LIMITS.maxTopUpCents) })
  .meta({ id: 'TopUpBody' });
export const WalletPatchBody = z
  .strictObject({
    autoRecharge: z.strictObject({
      enabled: z.boolean().optional(),
      thresholdCents: z.number().int().min(0).max(MONEY_LIMITS.maxThresholdCents).optional(),
      amountCents: z.number().int().min(MONEY_LIMITS.minTopUpCents).max(MONEY_LIMITS.maxTopUpCents).optional(),
    }),
  })
  .meta({ id: 'WalletPatchBody' });
export const BillingPatchBody = z
  .strictObject({ spendLimitCents: z.number().int().min(0).max(MONEY_LIMITS.maxSpendLimitCents) })
  .meta({ id: 'BillingPatchBody' });
export const SubscriptionBody = z.strictObject({ plan: z.enum(PLAN_NAMES) }).meta({ id: 'SubscriptionBody' });
export const CardBody = z.strictObject({ token: z.string().min(1).max(200) }).meta({ id: 'CardBody' });
export const SandboxWalletBody = z
  .strictObject({ balanceCents: z.number().int().min(0).max(MONEY_LIMITS.maxTopUpCents * 100) })
  .meta({ id: 'SandboxWalletBody' });
export const CreditKind = z.enum(CREDIT_KINDS);
