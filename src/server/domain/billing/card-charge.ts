import type { TxDeps } from '../deps.js';
import { outsideFirst } from '../outside-first.js';
import { ServiceError } from '../../errors.js';

// contract §11: every money move to a card goes through the payment provider (deps.payments).
// A refusal becomes the spec's error: a declined card is `payment_required` (402), the provider
// failing is `provider_error` (502, safe to retry). Thrown before anything is written, so the
// caller's transaction leaves nothing behind.

/** The message when an act needs a saved card and there is none (409: the state, not the body, is wrong). */
export const NO_CARD_MESSAGE = 'save a card first: PUT /v1/billing/card';

/**
 * The card charged before the write that needs it (outside-first.ts: with no transaction open; the
 * write then runs again and finds the charge). `key` names the act: the same key in a write is the
 * same charge.
 */
export function chargeCardOrThrow(tx: Pick<TxDeps, 'prior'>, key: string, token: string, amountCents: number, what: string): string {
  const result = outsideFirst(tx, key, (deps) => deps.payments.charge(token, amountCents));
  if (result.ok) return result.chargeId;
  // spec: Errors — `provider_error` (502) an upstream payment provider failed; `payment_required` (402).
  if (result.reason === 'provider_error') throw new ServiceError('provider_error', `${what}: ${result.message}`);
  throw new ServiceError('payment_required', `${what}: ${result.message}`);
}
