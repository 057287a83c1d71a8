// The example app's suite: the platform runs inside it (setup.mjs), so these tests need no network,
// no account and no sleeps: the clock moves when a test says so.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAutoResponder, replyFor } from './auto-responder.mjs';
import { signUp } from './signup.mjs';

const svc = () => globalThis.svc;
const CUSTOMER = '+14155550123';
const ourNumber = async () => (await svc().request('GET', '/v1/numbers')).body.data[0].phoneNumber;

describe('the SMS auto-responder', () => {
  let responder;
  beforeEach(async () => (responder = await startAutoResponder(svc().env)));
  afterEach(async () => await responder.close());

  it('answers a question about opening hours', async () => {
    await svc().inbound.sms({ to: await ourNumber(), from: CUSTOMER, body: 'What are your hours?' });
    const reply = await svc().waitFor.message({ to: CUSTOMER, match: /open 9am/ });
    expect(reply.body).toBe(replyFor('hours'));
  });

  it('retries a 429 and answers a duplicated webhook once', async () => {
    // Seed 2: the reply's first try is refused with 429 (Retry-After: 0), the retry goes through;
    // every webhook delivery is sent twice.
    await svc().chaos.set({ seed: 2, faults: { 'api.429': { rate: 0.5, retryAfterSecs: 0 }, 'webhook.duplicate': { rate: 1 } } });
    await svc().inbound.sms({ to: await ourNumber(), from: CUSTOMER, body: 'where are you?' });
    await svc().waitFor.message({ to: CUSTOMER, match: /Bay St/ });
    const log = await svc().chaos.log();
    expect(log.map((e) => e.kind)).toEqual(expect.arrayContaining(['api.429', 'webhook.duplicate']));
    // The duplicate delivery did not produce a second reply.
    await svc().waitFor.event('message.received', { from: CUSTOMER });
    const replies = (await svc().request('GET', `/v1/messages?direction=outbound&to=${encodeURIComponent(CUSTOMER)}`)).body.data;
    expect(replies).toHaveLength(1);
  });
});

describe('the email sign-up', () => {
  it('sends a welcome email', async () => {
    await signUp(svc().env, { email: 'ada@example.net', name: 'Ada' });
    await svc().clock.advance('1m');
    const mail = await svc().waitFor.email({ to: 'ada@example.net', subject: /Welcome/ });
    expect(mail.text).toContain('thanks for signing up');
  });

  it('starts each test from the seeded state', async () => {
    expect((await svc().request('GET', '/v1/emails')).body.data).toEqual([]);
  });
});
