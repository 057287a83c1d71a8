import { describe, expect, it } from 'vitest';
import { SimulatedPayments } from './payments.js';
import { SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN } from '../../api/values/billing.js';

describe('SimulatedPayments', () => {
  it('charges tok_visa with a fresh charge id each time', async () => {
    const p = new SimulatedPayments();
    const a = await p.charge(SANDBOX_CARD_TOKEN, 500);
    const b = await p.charge(SANDBOX_CARD_TOKEN, 500);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.chargeId).toMatch(/^ch_/);
      expect(a.chargeId).not.toBe(b.chargeId);
    }
  });

  it('declines tok_chargeDeclined and unknown tokens', async () => {
    const p = new SimulatedPayments();
    expect(await p.charge(SANDBOX_DECLINED_CARD_TOKEN, 500)).toMatchObject({ ok: false, reason: 'declined' });
    expect(await p.charge('tok_nope', 500)).toMatchObject({ ok: false, reason: 'declined' });
  });

  it('fails the next charge once with provider_error, whatever the card, then recovers', async () => {
    const p = new SimulatedPayments();
    await p.failNext();
    expect(await p.charge(SANDBOX_CARD_TOKEN, 100)).toMatchObject({ ok: false, reason: 'provider_error' });
    expect(await p.charge(SANDBOX_CARD_TOKEN, 100)).toMatchObject({ ok: true });
    await p.failNext();
    expect(await p.charge(SANDBOX_DECLINED_CARD_TOKEN, 100)).toMatchObject({ ok: false, reason: 'provider_error' });
    expect(await p.charge(SANDBOX_DECLINED_CARD_TOKEN, 100)).toMatchObject({ ok: false, reason: 'declined' });
  });

  it('knows the last four digits of the sandbox cards only', async () => {
    const p = new SimulatedPayments();
    expect(p.cardLast4(SANDBOX_CARD_TOKEN)).toBe('4242');
    expect(p.cardLast4(SANDBOX_DECLINED_CARD_TOKEN)).toBe('0002');
    expect(p.cardLast4('tok_unknown')).toBeNull();
  });
});
