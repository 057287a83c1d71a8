// The simulated payment provider (contract §9, §11: only the outside world is simulated, behind a
// small interface so a real provider could be plugged in). The billing domain charges saved cards
// through it: top-ups, auto-recharges and subscription renewals.
//
// `SimulatedPayments` knows the sandbox card tokens (api/values/billing.ts):
// - `tok_visa` (SANDBOX_CARD_TOKEN) always succeeds;
// - `tok_chargeDeclined` (SANDBOX_DECLINED_CARD_TOKEN) is a valid card whose charges are declined;
// - any other token is unknown: `cardLast4` answers null and the domain refuses to save it.
// `failNext()` (contract §9 `POST /v1/sandbox/payments/fail-next`) makes the next charge, whichever
// account or card makes it, fail once with `provider_error`. Decision: the flag lives in memory, so a
// restart forgets an armed failure (it stands in for a transient outage, which a restart outlives).

import { SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN } from '../../api/values/billing.js';
import { newId } from '../ids.js';

export type PaymentResult =
  | { ok: true; chargeId: string }
  | { ok: false; reason: 'declined' | 'provider_error'; message: string };

export interface Payments {
  /** Charges a saved card; never throws for a refusal (the caller decides what a refusal means). */
  charge(token: string, amountCents: number): PaymentResult;
  /** The next charge fails with `provider_error`, once, service-wide. */
  failNext(): void;
  /** The card's last four digits, or null when the provider does not know the token. */
  cardLast4(token: string): string | null;
}

/** The sandbox cards: the test card numbers' last four digits (as public test card lists give them). */
const SANDBOX_CARDS: Readonly<Record<string, { last4: string; declines: boolean }>> = {
  [SANDBOX_CARD_TOKEN]: { last4: '4242', declines: false },
  [SANDBOX_DECLINED_CARD_TOKEN]: { last4: '0002', declines: true },
};

export class SimulatedPayments implements Payments {
  private failNextCharge = false;

  charge(token: string, amountCents: number): PaymentResult {
    if (!Number.isInteger(amountCents) || amountCents <= 0) throw new Error(`charge amount must be a positive integer of cents, got ${amountCents}`);
    // An armed failure is spent by the next attempt, whatever the card: the provider was down for it.
    if (this.failNextCharge) {
      this.failNextCharge = false;
      return { ok: false, reason: 'provider_error', message: 'the payment provider failed; safe to retry later' };
    }
    const card = SANDBOX_CARDS[token];
    if (!card) return { ok: false, reason: 'declined', message: 'the card is unknown to the payment provider' };
    if (card.declines) return { ok: false, reason: 'declined', message: 'the card was declined' };
    return { ok: true, chargeId: newId('chg') };
  }

  failNext(): void {
    this.failNextCharge = true;
  }

  cardLast4(token: string): string | null {
    return SANDBOX_CARDS[token]?.last4 ?? null;
  }
}
