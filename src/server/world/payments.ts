import { randomBytes } from 'node:crypto';
import { SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN } from '../../api/values/billing.js';

// contract §9, §11: the outside payment provider, simulated on the local service. It knows the
// sandbox card tokens (a real provider's test cards work the same way): `tok_visa` pays,
// `tok_chargeDeclined` is declined; `failNext()` (POST /v1/sandbox/payments/fail-next) makes the
// next charge fail as an outage would (`provider_error`, spec: Errors — 502, safe to retry).

export type PaymentResult =
  | { ok: true; chargeId: string }
  | { ok: false; reason: 'declined' | 'provider_error'; message: string };

export interface Payments {
  /** Charges a saved card token; never throws. */
  charge(token: string, amountCents: number): Promise<PaymentResult>;
  /** The next charge fails with `provider_error`, once, whoever it is for. */
  failNext(): Promise<void>;
  /** The last four digits the provider reports for a token, or null for a token it does not know. */
  cardLast4(token: string): string | null;
}

const CARDS: Record<string, { last4: string; declines: boolean }> = {
  [SANDBOX_CARD_TOKEN]: { last4: '4242', declines: false },
  [SANDBOX_DECLINED_CARD_TOKEN]: { last4: '0002', declines: true },
};

/**
 * Where the provider keeps its fail-next flag. One provider serves every process of the service:
 * replicas on one PostgreSQL database, a worker beside the API, so the service keeps the
 * flag in its database (compose.ts `storedFailNext`): armed through one replica, the next charge
 * fails whichever process makes it. `MemoryFailNext` is for a provider alone (unit tests).
 */
export interface FailNextSwitch {
  arm(): Promise<void>;
  /** True once after `arm()`, to whoever asks first: the flag is cleared in the same step. */
  take(): Promise<boolean>;
}

export class MemoryFailNext implements FailNextSwitch {
  private armed = false;
  async arm(): Promise<void> {
    this.armed = true;
  }
  async take(): Promise<boolean> {
    const armed = this.armed;
    this.armed = false;
    return armed;
  }
}

export class SimulatedPayments implements Payments {
  constructor(private readonly failNextSwitch: FailNextSwitch = new MemoryFailNext()) {}

  async charge(token: string, amountCents: number): Promise<PaymentResult> {
    if (await this.failNextSwitch.take()) {
      return { ok: false, reason: 'provider_error', message: 'the payment provider did not answer; nothing was charged, try again later' };
    }
    const card = CARDS[token];
    if (!card) return { ok: false, reason: 'declined', message: `the payment provider does not know card ${token}` };
    // No amount in the words: the caller knows what it asked for, and the CLI shows dollars.
    if (card.declines) return { ok: false, reason: 'declined', message: `the card ending ${card.last4} was declined` };
    return { ok: true, chargeId: `ch_${randomBytes(12).toString('hex')}` };
  }

  async failNext(): Promise<void> {
    await this.failNextSwitch.arm();
  }

  cardLast4(token: string): string | null {
    return CARDS[token]?.last4 ?? null;
  }
}
