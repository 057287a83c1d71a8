import { isoOrNull } from '../clock.js';
import type { Billing } from '../../api/schemas/billing.js';
import type { BillingSnapshot } from '../domain/billing/billing.js';

// Records → API shape for billing (contract §11). The card shows whether one is saved and its last
// four digits (the decline message names them, so should the billing); its token stays in
// the service. Rules for reads: views/README.md.

export const billingView = ({ wallet, monthToDateCents }: BillingSnapshot): Billing => ({
  plan: wallet.plan,
  subscription: { status: wallet.subscriptionStatus, currentPeriodEnd: isoOrNull(wallet.currentPeriodEnd) },
  wallet: {
    balanceCents: wallet.balanceCents,
    autoRecharge: { enabled: wallet.autoRechargeEnabled, thresholdCents: wallet.thresholdCents, amountCents: wallet.rechargeAmountCents },
    hasCard: wallet.cardToken !== null,
    card: wallet.cardToken !== null && wallet.cardLast4 !== null ? { last4: wallet.cardLast4 } : null,
  },
  spendLimitCents: wallet.spendLimitCents,
  monthToDateCents,
});
