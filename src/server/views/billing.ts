import { isoOrNull } from '../clock.js';
import type { Billing } from '../../api/schemas/billing.js';
import type { BillingSnapshot } from '../domain/billing/billing.js';

// Records → API shape for billing (contract §11). The card shows only whether one is saved: its
// token and last four digits stay in the service. Rules for reads: views/README.md.

export const billingView = ({ wallet, monthToDateCents }: BillingSnapshot): Billing => ({
  plan: wallet.plan,
  subscription: { status: wallet.subscriptionStatus, currentPeriodEnd: isoOrNull(wallet.currentPeriodEnd) },
  wallet: {
    balanceCents: wallet.balanceCents,
    autoRecharge: { enabled: wallet.autoRechargeEnabled, thresholdCents: wallet.thresholdCents, amountCents: wallet.rechargeAmountCents },
    hasCard: wallet.cardToken !== null,
  },
  spendLimitCents: wallet.spendLimitCents,
  monthToDateCents,
});
