import { UsageError } from '../../errors.js';
import { parseDollars } from '../../money.js';
import { MONEY_LIMITS, type Plan } from '../../../api/values/billing.js';

// The billing verbs' flags as commander gives them, and the options their run functions work with
// (amounts in cents): the one conversion, imported by the run module (and the flag tests).

export interface TopUpFlags {
  amount: string;
  idempotencyKey?: string;
}
export interface TopUpOptions {
  amountCents: number;
  idempotencyKey?: string;
}
export const topUpOptionsOf = (f: TopUpFlags): TopUpOptions => ({
  amountCents: parseDollars(f.amount, '<amount>', { minCents: MONEY_LIMITS.minTopUpCents, maxCents: MONEY_LIMITS.maxTopUpCents }),
  ...(f.idempotencyKey !== undefined ? { idempotencyKey: f.idempotencyKey } : {}),
});

export interface AutoRechargeFlags {
  enable?: boolean;
  disable?: boolean;
  threshold?: string;
  amount?: string;
}
export interface AutoRechargeOptions {
  enabled?: boolean;
  thresholdCents?: number;
  amountCents?: number;
}
export function autoRechargeOptionsOf(o: AutoRechargeFlags): AutoRechargeOptions {
  if (o.enable && o.disable) throw new UsageError('--enable and --disable: give one of them', '--enable');
  if (!o.enable && !o.disable && o.threshold === undefined && o.amount === undefined) throw new UsageError('give --enable, --disable, --threshold or --amount', '--enable');
  const opts: AutoRechargeOptions = {};
  if (o.enable || o.disable) opts.enabled = Boolean(o.enable);
  if (o.threshold !== undefined) opts.thresholdCents = parseDollars(o.threshold, '--threshold', { minCents: 0, maxCents: MONEY_LIMITS.maxThresholdCents });
  if (o.amount !== undefined) opts.amountCents = parseDollars(o.amount, '--amount', { minCents: MONEY_LIMITS.minTopUpCents, maxCents: MONEY_LIMITS.maxTopUpCents });
  return opts;
}

export interface LimitFlags {
  amount: string;
}
export interface LimitOptions {
  spendLimitCents: number;
}
export const limitOptionsOf = (f: LimitFlags): LimitOptions => ({ spendLimitCents: parseDollars(f.amount, '<amount>', { minCents: 0, maxCents: MONEY_LIMITS.maxSpendLimitCents }) });

export interface SubscribeOptions {
  plan: Plan;
}
export interface CardOptions {
  token: string;
}
