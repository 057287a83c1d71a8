import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectLedgerConsistent } from './helpers/money.js';
import { chargesFor, footprint, openHold, openHoldsTotal } from './helpers/inspect.js';
import { feedEvents, listAll } from './helpers/reads.js';
import { buy, liveNumber } from './messages-fixtures.js';
import { GOOD_BRAND, GOOD_CAMPAIGN, approvedCampaign } from './registration-fixtures.js';
import { CALLER, getCall, placeCall, seedDevice, voiceNumber } from './calls-fixtures.js';
import { addSendingDomain, emailBody, freshDomain } from './helpers/email-fixtures.js';
import { PRICES, emailChargeCents } from '../src/api/values/prices.js';
import { NUMBER_RENEWAL } from '../src/api/values/billing.js';

// contract §11, spec: Errors (`payment_required`, `budget_exceeded`), Event catalog (`billing.*`),
// Authentication (test keys move no money). Every billable family refuses with 402 when the wallet or
// the month's spend limit cannot pay, and leaves nothing half-done; the ledger always sums to the balance.

let svc: TestService;
let acct: string;
let sender: any; // a live number of the bootstrap account (approved mock campaign)

beforeAll(async () => {
  svc = await startTestService();
  acct = svc.bootstrap.accountId;
  sender = await liveNumber(svc);
});
afterAll(async () => {
  await svc?.stop();
});
afterEach(async () => {
  // The invariant after every test: the wallet is the sum of the ledger, never below zero.
  await expectLedgerConsistent(svc, acct);
  // Each test sets its own balance and limit; start the next one from a known wallet.
  await fund(10_000);
  await limitTo(1_000_000);
});

/** The wallet at exactly `cents`, through a ledger row (PUT /v1/sandbox/wallet). */
async function fund(cents: number): Promise<void> {
  const res = await svc.call('PUT', '/v1/sandbox/wallet', { body: { balanceCents: cents } });
  expect(res.status, res.text).toBe(200);
}
async function limitTo(cents: number): Promise<void> {
  const res = await svc.call('PATCH', '/v1/billing', { body: { spendLimitCents: cents } });
  expect(res.status, res.text).toBe(200);
}
async function billing(): Promise<any> {
  const res = await svc.call('GET', '/v1/billing');
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const balance = async (): Promise<number> => (await billing()).wallet.balanceCents;
/** A spend limit that leaves exactly `cents` of room this month (the month's charges and the open holds count against it). */
const roomOf = async (cents: number) => await limitTo((await billing()).monthToDateCents + (await openHoldsTotal(svc, acct)) + cents);

/** Each family's list, where a refused create would show a record. */
const LISTS = { messages: '/v1/messages', numbers: '/v1/numbers', calls: '/v1/calls', emails: '/v1/emails', brands: '/v1/brands', campaigns: '/v1/campaigns', ports: '/v1/ports' } as const;

/** What a refused act must leave untouched: no record, no event, no ledger row, no hold, no job, no stored response. */
async function snapshot(family: keyof typeof LISTS) {
  const newestEvent = (await svc.call('GET', '/v1/events?order=desc&limit=1')).body.data[0]?.eventId ?? null;
  return { [family]: (await listAll(svc, LISTS[family])).length, newestEvent, ...(await footprint(svc, acct)) };
}

function expect402(res: { status: number; body: any }, code: 'payment_required' | 'budget_exceeded') {
  expect(res.status, JSON.stringify(res.body)).toBe(402);
  expect(res.body.error.code).toBe(code);
}

const lowBalanceEvents = async () => await feedEvents(svc, { types: 'billing.wallet.low_balance' });
const send = (body: Record<string, unknown>, o: { key?: string; headers?: Record<string, string> } = {}) => svc.call('POST', '/v1/messages', { body, ...o });
const sms = (extra: Record<string, unknown> = {}) => ({ to: '+14155550100', from: sender.phoneNumber, body: 'hello', ...extra });

describe('messages: the price is reserved at accept, settled on sent', () => {
  it('an empty wallet → 402 payment_required: no message, no event, no job, no ledger row, no stored 201', async () => {
    await fund(0);
    const before = await snapshot('messages');
    const res = await send(sms(), { headers: { 'idempotency-key': 'broke-1' } });
    expect402(res, 'payment_required');
    expect(await snapshot('messages')).toEqual(before);
    // The same key once the wallet is funded is a new attempt (no 201 was recorded).
    await fund(100);
    const again = await send(sms(), { headers: { 'idempotency-key': 'broke-1' } });
    expect(again.status).toBe(201);
  });

  it('a spend limit just below the price → 402 budget_exceeded, nothing written', async () => {
    const twoSegments = 'x'.repeat(200); // 2 GSM-7 segments
    await roomOf(2 * PRICES.smsSegment - 1);
    const before = await snapshot('messages');
    expect402(await send(sms({ body: twoSegments })), 'budget_exceeded');
    expect(await snapshot('messages')).toEqual(before);
    await roomOf(2 * PRICES.smsSegment);
    expect((await send(sms({ body: twoSegments }))).status).toBe(201);
  });

  it('holds the price at accept (out of the balance), then charges it on sent; MMS per message', async () => {
    await fund(1000);
    const res = await send(sms({ body: 'y'.repeat(161) }));
    expect(res.status).toBe(201);
    expect(await balance()).toBe(1000 - 2 * PRICES.smsSegment);
    expect(await openHold(svc, res.body.id)).toMatchObject({ amountCents: 2 * PRICES.smsSegment, category: 'sms' });
    expect((await chargesFor(svc, acct, res.body.id))).toEqual([]);

    const mms = await send(sms({ mediaUrls: ['https://e.test/a.png'] }));
    expect(mms.status).toBe(201);
    expect(await balance()).toBe(1000 - 2 * PRICES.smsSegment - PRICES.mmsMessage);

    await svc.advanceJobs(5);
    expect((await svc.call('GET', `/v1/messages/${res.body.id}`)).body.status).toBe('delivered');
    expect(await openHold(svc, res.body.id)).toBeUndefined();
    expect((await chargesFor(svc, acct, res.body.id))).toEqual([
      expect.objectContaining({ category: 'sms', quantity: 2, amountCents: 2 * PRICES.smsSegment }),
    ]);
    expect((await chargesFor(svc, acct, mms.body.id))).toEqual([
      expect.objectContaining({ category: 'mms', quantity: 1, amountCents: PRICES.mmsMessage }),
    ]);
    // Settling moves no money: the hold had taken it already.
    expect(await balance()).toBe(1000 - 2 * PRICES.smsSegment - PRICES.mmsMessage);
  });

  it('a test key and the test sender move no money, even from an empty wallet; inbound is free', async () => {
    await fund(0);
    const ledgerBefore = (await footprint(svc, acct)).ledger;
    const viaTestKey = await send(sms(), { key: svc.bootstrap.testKey });
    expect(viaTestKey.status).toBe(201);
    const viaTestSender = await send(sms({ from: '+15005550006' }));
    expect(viaTestSender.status).toBe(201);
    const inbound = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550111', to: sender.phoneNumber, body: 'hi' } });
    expect(inbound.status, inbound.text).toBe(201);
    await svc.advanceJobs(5);
    expect((await footprint(svc, acct)).ledger).toBe(ledgerBefore);
    expect(await balance()).toBe(0);
  });

  it('billing.wallet.low_balance fires once per crossing below the threshold, again after a credit re-arms it', async () => {
    const threshold = (await billing()).wallet.autoRecharge.thresholdCents as number;
    await fund(threshold + 1);
    const before = (await lowBalanceEvents()).length;
    expect((await send(sms())).status).toBe(201); // threshold: not below
    expect(await lowBalanceEvents()).toHaveLength(before);
    expect((await send(sms())).status).toBe(201); // threshold - 1: crossed
    expect((await send(sms())).status).toBe(201); // still below: no second event
    const fired = (await lowBalanceEvents()).slice(before);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ balanceCents: threshold - 1, thresholdCents: threshold, autoRechargeStarted: false });
    await fund(threshold + 1); // a credit back above the threshold re-arms it
    await send(sms());
    await send(sms());
    expect((await lowBalanceEvents()).slice(before)).toHaveLength(2);
  });

  it('the invariant: 200 concurrent live sends against a wallet that covers 50 → exactly 50 accepted', async () => {
    await fund(50 * PRICES.smsSegment);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => send(sms({ body: `burst ${i}` }))));
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 402);
    expect(accepted).toHaveLength(50);
    expect(refused).toHaveLength(150);
    expect(refused.every((r) => r.body.error.code === 'payment_required')).toBe(true);
    expect(await balance()).toBe(0);
    await expectLedgerConsistent(svc, acct);
    await svc.advanceJobs(5);
    const ids = new Set(accepted.map((r) => r.body.id as string));
    expect((await chargesFor(svc, acct)).filter((c) => c.ref !== null && ids.has(c.ref))).toHaveLength(50);
    expect(await balance()).toBe(0);
  });
});

describe('numbers: first month on buy, renewals on the clock, emergency', () => {
  it('an empty wallet → 402 on buy and the number stays in the inventory', async () => {
    await fund(0);
    const search = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '415', limit: 5 } });
    const pick = search.body.data[0].phoneNumber as string;
    const before = await snapshot('numbers');
    expect402(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: pick } }), 'payment_required');
    expect(await snapshot('numbers')).toEqual(before);
    await fund(1000);
    await roomOf(PRICES.localNumberMonthly - 1);
    const funded = await snapshot('numbers');
    expect402(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: pick } }), 'budget_exceeded');
    expect(await snapshot('numbers')).toEqual(funded);
    await limitTo(1_000_000);
    const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: pick } });
    expect(bought.status).toBe(201);
    expect((await chargesFor(svc, acct, bought.body.id))).toEqual([
      expect.objectContaining({ category: 'local_number', quantity: 1, amountCents: PRICES.localNumberMonthly }),
    ]);
  });

  it('renews every period from the wallet; an unpaid renewal keeps the number and is retried daily until paid', async () => {
    await fund(10_000);
    const n = await buy(svc);
    const fees = async () => (await chargesFor(svc, acct, n.id)).filter((c) => c.category === 'local_number');
    expect(await fees()).toHaveLength(1);
    await svc.advanceJobs(NUMBER_RENEWAL.periodSecs);
    expect(await fees()).toHaveLength(2);

    await fund(0);
    await svc.advanceJobs(NUMBER_RENEWAL.periodSecs);
    expect(await fees()).toHaveLength(2);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.status).not.toBe('released');
    await svc.advanceJobs(NUMBER_RENEWAL.retrySecs);
    expect(await fees()).toHaveLength(2);

    await fund(1000);
    const fundedAt = svc.now();
    await svc.advanceJobs(NUMBER_RENEWAL.retrySecs);
    expect(await fees()).toHaveLength(3);
    // Recorded when paid (after the wallet was funded), for the full month.
    expect((await fees())[2]!.amountCents).toBe(PRICES.localNumberMonthly);
    expect((await fees())[2]!.createdAt).toBeGreaterThan(fundedAt);
    // Released: no more renewals.
    expect((await svc.call('POST', `/v1/numbers/${n.id}/release`)).status).toBe(200);
    await svc.advanceJobs(NUMBER_RENEWAL.periodSecs);
    expect(await fees()).toHaveLength(3);
  });

  it('turning emergency calling on with an empty wallet → 402 and emergency stays off', async () => {
    await fund(1000);
    const n = await buy(svc);
    await fund(0);
    const emergency = { enabled: true, address: { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' } };
    const before = await snapshot('numbers');
    expect402(await svc.call('PATCH', `/v1/numbers/${n.id}`, { body: { emergency } }), 'payment_required');
    expect(await snapshot('numbers')).toEqual(before);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.emergency).toMatchObject({ enabled: false });
    await fund(1000);
    expect((await svc.call('PATCH', `/v1/numbers/${n.id}`, { body: { emergency } })).status).toBe(200);
    expect((await chargesFor(svc, acct, n.id)).filter((c) => c.category === 'emergency')).toHaveLength(1);
  });
});

describe('voice: the first minute must be payable at start; the end charges what the wallet can pay', () => {
  it('a live sandbox call with an empty wallet → 402 and no call; a test key still calls', async () => {
    await fund(1000);
    const n = await voiceNumber(svc);
    await fund(0);
    const before = await snapshot('calls');
    expect402(await svc.call('POST', '/v1/sandbox/calls', { body: { from: CALLER, to: n.phoneNumber, scenario: {} } }), 'payment_required');
    expect(await snapshot('calls')).toEqual(before);
    const free = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 30 } }, { key: svc.bootstrap.testKey });
    await svc.advanceJobs(40);
    expect((await getCall(svc, free.id)).status).toBe('completed');
    expect((await footprint(svc, acct)).ledger).toBe(before.ledger);
  });

  it('a live softphone call with nothing to pay → 402 and no call', async () => {
    await fund(1000);
    const n = await voiceNumber(svc);
    const device = await seedDevice(svc);
    await fund(PRICES.voiceMinute - 1);
    const before = await snapshot('calls');
    expect402(await svc.call('POST', '/v1/webrtc/calls', { body: { deviceId: device, from: n.phoneNumber, to: '+14155550199' } }), 'payment_required');
    expect(await snapshot('calls')).toEqual(before);
    await fund(PRICES.voiceMinute);
    const placed = await svc.call('POST', '/v1/webrtc/calls', { body: { deviceId: device, from: n.phoneNumber, to: '+14155550199' } });
    expect(placed.status).toBe(201);
    await svc.advanceJobs(3600); // let it end (and be charged) before the next test sets the wallet
    expect((await getCall(svc, placed.body.id)).status).toBe('completed');
  });

  it('a call that outlives the balance is charged what the wallet holds, never below zero', async () => {
    await fund(1000);
    const n = await voiceNumber(svc);
    await fund(PRICES.voiceMinute); // one minute's worth
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 5 * 60 } });
    await svc.advanceJobs(6 * 60);
    expect((await getCall(svc, call.id)).status).toBe('completed');
    expect((await chargesFor(svc, acct, call.id))).toEqual([
      expect.objectContaining({ category: 'voice', quantity: 5, amountCents: PRICES.voiceMinute }),
    ]);
    expect(await balance()).toBe(0);
  });
});

describe('email, registration, ports: charged on accept through the one path', () => {
  it('email: an empty wallet → 402 and no email; a limit below the price → budget_exceeded', async () => {
    const domain = freshDomain('bill');
    await addSendingDomain(svc, domain);
    await fund(0);
    const before = await snapshot('emails');
    expect402(await svc.call('POST', '/v1/emails', { body: emailBody(`hi@${domain}`) }), 'payment_required');
    expect(await snapshot('emails')).toEqual(before);
    await fund(1000);
    await roomOf(emailChargeCents(1) - 1);
    const funded = await snapshot('emails');
    expect402(await svc.call('POST', '/v1/emails', { body: emailBody(`hi@${domain}`) }), 'budget_exceeded');
    expect(await snapshot('emails')).toEqual(funded);
    await limitTo(1_000_000);
    const ok = await svc.call('POST', '/v1/emails', { body: emailBody(`hi@${domain}`) });
    expect(ok.status, ok.text).toBe(201);
    expect((await chargesFor(svc, acct, ok.body.id))).toEqual([expect.objectContaining({ category: 'email', amountCents: emailChargeCents(1) })]);
  });

  it('brand registration, vetting and campaign fees: refused → 402 and nothing registered', async () => {
    await fund(PRICES.brandRegistration - 1);
    const before = await snapshot('brands');
    expect402(await svc.call('POST', '/v1/brands', { body: GOOD_BRAND }), 'payment_required');
    expect(await snapshot('brands')).toEqual(before);

    await fund(PRICES.brandRegistration);
    const brand = await svc.call('POST', '/v1/brands', { body: GOOD_BRAND });
    expect(brand.status, brand.text).toBe(201);
    expect(await balance()).toBe(0);
    expect((await svc.call('POST', `/v1/sandbox/brands/${brand.body.id}/decision`, { body: { decision: 'approved' } })).status).toBe(200);

    const vetBefore = await snapshot('brands');
    const vet = await svc.call('POST', `/v1/brands/${brand.body.id}/vetting`, { body: { provider: 'AEGIS', vettingClass: 'STANDARD' } });
    expect402(vet, 'payment_required');
    expect(await snapshot('brands')).toEqual(vetBefore);
    expect((await svc.call('GET', `/v1/brands/${brand.body.id}`)).body.identityStatus).not.toBe('VETTED_VERIFIED');

    const campBefore = await snapshot('campaigns');
    expect402(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: brand.body.id } }), 'payment_required');
    expect(await snapshot('campaigns')).toEqual(campBefore);
    await fund(PRICES.campaignRegistration);
    await roomOf(PRICES.campaignRegistration - 1);
    const funded = await snapshot('campaigns');
    expect402(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: brand.body.id } }), 'budget_exceeded');
    expect(await snapshot('campaigns')).toEqual(funded);
    // A mock brand's campaign is free.
    await fund(0);
    expect((await approvedCampaign(svc)).status).toBe('approved');
  });

  it('ports: per number at submit; refused → 402 and the port stays a draft', async () => {
    const numbers: string[] = [];
    for (let line = 0; numbers.length < 2; line++) {
      const candidate = `+1415740${String(line).padStart(4, '0')}`;
      const check = await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: [candidate] } });
      if (check.body.data[0].portable) numbers.push(candidate);
    }
    const port = await svc.call('POST', '/v1/ports', {
      body: { phoneNumbers: numbers, authorizedName: 'Dana Scully', accountNumber: 'ACCT-1', pin: 'PIN-1', serviceAddress: { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' } },
    });
    expect(port.status, port.text).toBe(201);
    for (const type of ['loa', 'bill']) {
      const doc = { type, filename: `${type}.pdf`, contentBase64: Buffer.from(`%PDF-1.4 ${type}`).toString('base64') };
      expect((await svc.call('POST', `/v1/ports/${port.body.id}/documents`, { body: doc })).status).toBe(200);
    }
    await fund(2 * PRICES.portPerNumber - 1);
    const before = await snapshot('ports');
    expect402(await svc.call('POST', `/v1/ports/${port.body.id}/submit`), 'payment_required');
    expect(await snapshot('ports')).toEqual(before);
    expect((await svc.call('GET', `/v1/ports/${port.body.id}`)).body.status).toBe('draft');
    await fund(2 * PRICES.portPerNumber);
    expect((await svc.call('POST', `/v1/ports/${port.body.id}/submit`)).status).toBe(200);
    expect((await chargesFor(svc, acct, port.body.id))).toEqual([expect.objectContaining({ category: 'port', quantity: 2, amountCents: 2 * PRICES.portPerNumber })]);
    expect(await balance()).toBe(0);
  });
});
