import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'undici';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itOnSqlite } from './helpers/engines.js';
import { assertBuilt, runSvcProcess } from './helpers/cli.js';
import { cellsContaining } from './helpers/inspect.js';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, buy, expectError } from './messages-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { ACCOUNT_MISMATCH_REASON, NOT_PORTABLE, PORT_LIMITS, PORT_REASONS, PORT_TIMINGS, REJECTED_ACCOUNT_NUMBER } from '../src/api/values/registration.js';
import { chargesFor, portDocumentContent, portHasPin, sqliteFiles } from './helpers/inspect.js';

// contract §7 (ports), §9 (sandbox port decision), §11 (port 100 per number), spec: Ports endpoints.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const DAY = 86_400;
const PIN = 'PIN-7731-SECRET';
const address = { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' };
const loa = { type: 'loa', filename: 'loa.pdf', contentBase64: Buffer.from('%PDF-1.4 letter of authorization').toString('base64') };
const bill = { type: 'bill', filename: 'bill.pdf', contentBase64: Buffer.from('%PDF-1.4 last month').toString('base64') };

let nextLine = 2000;
/** Fresh numbers the registry calls portable (asked through the API), never used by another test. */
async function portable(count: number, areaCode = '415', headers?: Record<string, string>): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const candidate = `+1${areaCode}73${String(nextLine++).padStart(5, '0')}`;
    const check = await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: [candidate] }, headers });
    expect(check.status).toBe(200);
    if (check.body.data[0].portable) out.push(candidate);
  }
  return out;
}

const body = (phoneNumbers: string[], extra: Record<string, unknown> = {}) => ({
  phoneNumbers,
  authorizedName: 'Dana Scully',
  accountNumber: 'ACCT-55821',
  pin: PIN,
  serviceAddress: address,
  ...extra,
});

async function createPort(phoneNumbers: string[], o: { extra?: Record<string, unknown>; headers?: Record<string, string>; key?: string } = {}): Promise<any> {
  const res = await svc.call('POST', '/v1/ports', { body: body(phoneNumbers, o.extra), headers: o.headers, key: o.key });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function attach(id: string, doc: unknown, headers?: Record<string, string>): Promise<any> {
  const res = await svc.call('POST', `/v1/ports/${id}/documents`, { body: doc, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A submitted port of `count` fresh numbers. */
async function submitted(count = 1, o: { extra?: Record<string, unknown>; headers?: Record<string, string>; key?: string } = {}): Promise<any> {
  const port = await createPort(await portable(count, '415', o.headers), o);
  await attach(port.id, loa, o.headers);
  await attach(port.id, bill, o.headers);
  const res = await svc.call('POST', `/v1/ports/${port.id}/submit`, { headers: o.headers, key: o.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('submitted');
  return res.body;
}

const getPort = async (id: string, headers?: Record<string, string>) => svc.call('GET', `/v1/ports/${id}`, { headers });

async function ownedNumbers(headers?: Record<string, string>): Promise<any[]> {
  const res = await svc.call('GET', '/v1/numbers?limit=100', { headers });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function portEvents(portId: string, headers?: Record<string, string>): Promise<any[]> {
  const res = await svc.call('GET', '/v1/events?types=port.updated&limit=100', { headers });
  expect(res.status).toBe(200);
  return res.body.data.filter((e: any) => e.portId === portId);
}

describe('POST /v1/ports/check', () => {
  it('answers every number in order, with the reason a number is not portable', async () => {
    const owned = await buy(svc);
    const search = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '212', limit: 1 } });
    const inInventory = search.body.data[0].phoneNumber as string;
    const [free, held] = await portable(2);
    await createPort([held!]);
    const numbers = [free!, owned.phoneNumber, held!, '+15005550006', '+12125550142', inInventory, '+442071234567', '+19115551234', '+14157349912', '+18887342001'];
    const res = await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: numbers } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { phoneNumber: free, portable: true, reason: null },
      { phoneNumber: owned.phoneNumber, portable: false, reason: PORT_REASONS.alreadyOnService },
      { phoneNumber: held, portable: false, reason: PORT_REASONS.openPort },
      { phoneNumber: '+15005550006', portable: false, reason: NOT_PORTABLE.reserved },
      { phoneNumber: '+12125550142', portable: false, reason: NOT_PORTABLE.reserved },
      { phoneNumber: inInventory, portable: false, reason: NOT_PORTABLE.ourInventory },
      { phoneNumber: '+442071234567', portable: false, reason: NOT_PORTABLE.notNanp },
      { phoneNumber: '+19115551234', portable: false, reason: NOT_PORTABLE.unknownAreaCode },
      { phoneNumber: '+14157349912', portable: false, reason: NOT_PORTABLE.noPortOut },
      // Toll-free numbers port too.
      { phoneNumber: '+18887342001', portable: true, reason: null },
    ]);
  });

  it('validates the body', async () => {
    expectError(await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: [] } }), 400, 'validation_error', ['body', 'phoneNumbers']);
    expectError(await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: ['4155550123'] } }), 400, 'validation_error', ['body', 'phoneNumbers', 0]);
    expectError(await svc.call('POST', '/v1/ports/check', { body: {} }), 400, 'validation_error', ['body', 'phoneNumbers']);
    const tooMany = Array.from({ length: PORT_LIMITS.phoneNumbers + 1 }, (_, i) => `+1415734${String(i).padStart(4, '0')}`);
    expectError(await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: tooMany } }), 400, 'validation_error', ['body', 'phoneNumbers']);
    expectError(await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: ['+14155550123'] }, key: null }), 401, 'unauthorized');
  });
});

describe('POST /v1/ports', () => {
  it('opens a draft port; the PIN is never shown', async () => {
    const numbers = await portable(2);
    const res = await svc.call('POST', '/v1/ports', { body: body(numbers) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^port_/),
      status: 'draft',
      phoneNumbers: numbers,
      authorizedName: 'Dana Scully',
      accountNumber: 'ACCT-55821',
      serviceAddress: address,
      documents: [],
      focDate: null,
      rejectionReason: null,
      createdAt: new Date(svc.now()).toISOString(),
      updatedAt: new Date(svc.now()).toISOString(),
    });
    expect(res.text).not.toContain(PIN);
    expect((await getPort(res.body.id)).body).toEqual(res.body);
  });

  it('is idempotent with Idempotency-Key: a replay returns the same port and opens nothing new', async () => {
    const numbers = await portable(1);
    const headers = { 'idempotency-key': `port-${numbers[0]}` };
    const first = await svc.call('POST', '/v1/ports', { body: body(numbers), headers });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await svc.call('POST', '/v1/ports', { body: body(numbers), headers });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.text).not.toContain(PIN);
    const all = await svc.call('GET', '/v1/ports?limit=100');
    expect(all.body.data.length).toBeGreaterThan(0);
    expect(all.body.data.filter((p: any) => p.phoneNumbers.includes(numbers[0]))).toHaveLength(1);
    // Without the key the number is held by the first port: not portable.
    expectError(await svc.call('POST', '/v1/ports', { body: body(numbers) }), 400, 'validation_error', ['body', 'phoneNumbers', 0]);
    // The same key with another body is a conflict.
    expectError(await svc.call('POST', '/v1/ports', { body: body(numbers, { authorizedName: 'Fox Mulder' }), headers }), 409, 'conflict');
  });

  it('refuses non-portable and repeated numbers, each named with its reason, and opens nothing', async () => {
    const owned = await buy(svc);
    const [ok] = await portable(1);
    const before = (await svc.call('GET', '/v1/ports?limit=100')).body.data.length;
    const res = await svc.call('POST', '/v1/ports', { body: body([ok!, owned.phoneNumber, '+15005550006', ok!]) });
    expectError(res, 400, 'validation_error');
    expect(res.body.error.details).toEqual([
      { path: ['body', 'phoneNumbers', 1], message: `${owned.phoneNumber} is not portable: ${PORT_REASONS.alreadyOnService}` },
      { path: ['body', 'phoneNumbers', 2], message: `+15005550006 is not portable: ${NOT_PORTABLE.reserved}` },
      { path: ['body', 'phoneNumbers', 3], message: `${ok} is listed twice` },
    ]);
    expect((await svc.call('GET', '/v1/ports?limit=100')).body.data.length).toBe(before);
    // The valid number is still free.
    expect((await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: [ok] } })).body.data[0].portable).toBe(true);
  });

  it('validates the body', async () => {
    const [n] = await portable(1);
    const post = (b: unknown) => svc.call('POST', '/v1/ports', { body: b });
    const { authorizedName: _a, ...noName } = body([n!]);
    expectError(await post(noName), 400, 'validation_error', ['body', 'authorizedName']);
    expectError(await post(body([n!], { accountNumber: '' })), 400, 'validation_error', ['body', 'accountNumber']);
    expectError(await post(body([n!], { pin: 'x'.repeat(21) })), 400, 'validation_error', ['body', 'pin']);
    expectError(await post(body([n!], { serviceAddress: { ...address, zip: undefined } })), 400, 'validation_error', ['body', 'serviceAddress', 'zip']);
    expectError(await post(body([n!], { nickname: 'x' })), 400, 'validation_error', ['body', 'nickname']);
    expectError(await post(body(['not-a-number'])), 400, 'validation_error', ['body', 'phoneNumbers', 0]);
    // A PIN is optional.
    const { pin: _p, ...noPin } = body([n!]);
    expect((await post(noPin)).status).toBe(201);
  });
});

describe('POST /v1/ports/{id}/documents', () => {
  it('attaches an loa and a bill, listed without their content; a new upload replaces its type', async () => {
    const port = await createPort(await portable(1));
    const withLoa = await attach(port.id, loa);
    expect(withLoa.documents).toEqual([
      { id: expect.stringMatching(/^pdoc_/), type: 'loa', filename: 'loa.pdf', sizeBytes: Buffer.from(loa.contentBase64, 'base64').length, uploadedAt: expect.any(String) },
    ]);
    expect(JSON.stringify(withLoa)).not.toContain(loa.contentBase64);
    const both = await attach(port.id, bill);
    expect(both.documents.map((d: any) => d.type)).toEqual(['loa', 'bill']);
    const replaced = await attach(port.id, { ...loa, filename: 'loa-signed.pdf' });
    expect(replaced.documents.map((d: any) => [d.type, d.filename])).toEqual([['bill', 'bill.pdf'], ['loa', 'loa-signed.pdf']]);
    // The bytes are kept, privately.
    const stored = await portDocumentContent(svc, replaced.documents[1].id);
    expect(stored?.toString()).toBe('%PDF-1.4 letter of authorization');
  });

  it('validates the document: type, filename, base64, size', async () => {
    const port = await createPort(await portable(1));
    const post = (b: unknown) => svc.call('POST', `/v1/ports/${port.id}/documents`, { body: b });
    expectError(await post({ ...loa, type: 'passport' }), 400, 'validation_error', ['body', 'type']);
    expectError(await post({ ...loa, filename: '' }), 400, 'validation_error', ['body', 'filename']);
    expectError(await post({ ...loa, contentBase64: 'not base64!' }), 400, 'validation_error', ['body', 'contentBase64']);
    expectError(await post({ ...loa, contentBase64: 'abc' }), 400, 'validation_error', ['body', 'contentBase64']);
    expectError(await post({ ...loa, contentBase64: '====' }), 400, 'validation_error', ['body', 'contentBase64']);
    const tooBig = Buffer.alloc(PORT_LIMITS.documentBytes + 1, 7).toString('base64');
    const big = await post({ ...loa, contentBase64: tooBig });
    expectError(big, 400, 'validation_error', ['body', 'contentBase64']);
    expect(big.body.error.details[0].message).toContain(String(PORT_LIMITS.documentBytes));
    // Exactly at the limit is accepted (the route's body limit allows the base64 of it).
    const atLimit = await post({ ...loa, contentBase64: Buffer.alloc(PORT_LIMITS.documentBytes, 7).toString('base64') });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
    expect(atLimit.body.documents[0].sizeBytes).toBe(PORT_LIMITS.documentBytes);
    expectError(await svc.call('POST', '/v1/ports/port_nope/documents', { body: loa }), 404, 'not_found');
  });
});

describe('POST /v1/ports/{id}/submit', () => {
  it('needs an loa and a bill (409 naming what is missing); then submitted and charged per number', async () => {
    const numbers = await portable(3);
    const port = await createPort(numbers);
    const submit = () => svc.call('POST', `/v1/ports/${port.id}/submit`);
    const none = await submit();
    expectError(none, 409, 'conflict', ['documents', 'loa']);
    expect(none.body.error.details.map((d: any) => d.path)).toEqual([['documents', 'loa'], ['documents', 'bill']]);
    expect(none.body.error.message).toMatch(/letter of authorization.*and a bill/);
    await attach(port.id, loa);
    const noBill = await submit();
    expectError(noBill, 409, 'conflict', ['documents', 'bill']);
    expect(noBill.body.error.message).toContain('a bill');
    expect(noBill.body.error.message).not.toContain('letter of authorization');
    await attach(port.id, bill);
    const done = await submit();
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('submitted');
    expect(done.body.focDate).toBeNull();
    // contract §11: port 100 per number, recorded when submitted (live key).
    const charges = (await chargesFor(svc, svc.bootstrap.accountId, port.id));
    expect(charges).toEqual([expect.objectContaining({ category: 'port', quantity: 3, amountCents: 3 * PRICES.portPerNumber })]);
    // Only a draft is submitted, and only a draft takes documents.
    expectError(await submit(), 409, 'conflict');
    expectError(await svc.call('POST', `/v1/ports/${port.id}/documents`, { body: loa }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/ports/port_nope/submit'), 404, 'not_found');
  });

  it('a test key records no usage', async () => {
    const port = await submitted(2, { key: svc.bootstrap.testKey });
    expect((await chargesFor(svc, svc.bootstrap.accountId, port.id))).toEqual([]);
  });
});

describe('the port on the service clock', () => {
  it('foc_scheduled 24 h after submission, completed at the FOC date: the numbers become the account\'s, idle', async () => {
    const port = await submitted(2);
    const submittedAt = svc.now();
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs - 1);
    expect((await getPort(port.id)).body.status).toBe('submitted');
    await advance(svc, 1);
    const scheduled = (await getPort(port.id)).body;
    expect(scheduled.status).toBe('foc_scheduled');
    const focMs = submittedAt + (PORT_TIMINGS.focScheduledAfterSecs + PORT_TIMINGS.focDateAfterSecs) * 1000;
    expect(scheduled.focDate).toBe(new Date(focMs).toISOString());
    // Not a number of the account yet.
    expect((await ownedNumbers()).filter((n) => port.phoneNumbers.includes(n.phoneNumber))).toEqual([]);

    await advance(svc, PORT_TIMINGS.focDateAfterSecs - 1);
    expect((await getPort(port.id)).body.status).toBe('foc_scheduled');
    await advance(svc, 1);
    const completed = (await getPort(port.id)).body;
    expect(completed.status).toBe('completed');
    expect(completed.focDate).toBe(scheduled.focDate);
    const mine = (await ownedNumbers()).filter((n) => port.phoneNumbers.includes(n.phoneNumber));
    expect(mine.map((n) => n.phoneNumber).sort()).toEqual([...port.phoneNumbers].sort());
    for (const n of mine) {
      expect(n).toMatchObject({ status: 'idle', type: 'local', capabilities: { sms: true, mms: true, voice: true }, locality: 'San Francisco', region: 'CA', campaignId: null });
    }
    // Owned now: another port cannot take them, and the completed port cannot be canceled.
    const check = await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: port.phoneNumbers } });
    expect(check.body.data.map((a: any) => a.reason)).toEqual([PORT_REASONS.alreadyOnService, PORT_REASONS.alreadyOnService]);
    expectError(await svc.call('POST', `/v1/ports/${port.id}/cancel`), 409, 'conflict');

    // port.updated on every move, in order, in the account's feed.
    const events = await portEvents(port.id);
    expect(events.map((e) => [e.previousStatus, e.status])).toEqual([
      [null, 'draft'],
      ['draft', 'submitted'],
      ['submitted', 'foc_scheduled'],
      ['foc_scheduled', 'completed'],
    ]);
    expect(events[2]).toMatchObject({ type: 'port.updated', portId: port.id, phoneNumbers: port.phoneNumbers, focDate: scheduled.focDate, rejectionReason: null });
    expect(events[3].createdAt).toBe(scheduled.focDate);
  });

  it('a toll-free number ports in as toll-free', async () => {
    const port = await createPort(await portable(1, '888'));
    await attach(port.id, loa);
    await attach(port.id, bill);
    expect((await svc.call('POST', `/v1/ports/${port.id}/submit`)).status).toBe(200);
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs + PORT_TIMINGS.focDateAfterSecs);
    expect((await getPort(port.id)).body.status).toBe('completed');
    const n = (await ownedNumbers()).find((x) => x.phoneNumber === port.phoneNumbers[0]);
    expect(n).toMatchObject({ type: 'tollfree', status: 'idle', tfvStatus: 'unverified' });
  });

  it('the losing carrier rejects the magic account number; the numbers stay free', async () => {
    const port = await submitted(1, { extra: { accountNumber: REJECTED_ACCOUNT_NUMBER } });
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs);
    const rejected = (await getPort(port.id)).body;
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: ACCOUNT_MISMATCH_REASON, focDate: null });
    await advance(svc, PORT_TIMINGS.focDateAfterSecs);
    expect((await getPort(port.id)).body.status).toBe('rejected');
    expect((await ownedNumbers()).some((n) => n.phoneNumber === port.phoneNumbers[0])).toBe(false);
    expectError(await svc.call('POST', `/v1/ports/${port.id}/cancel`), 409, 'conflict');
    // The number may be ported again.
    expect((await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: port.phoneNumbers } })).body.data[0].portable).toBe(true);
    const events = await portEvents(port.id);
    expect(events.map((e) => e.status)).toEqual(['draft', 'submitted', 'rejected']);
    expect(events[2].rejectionReason).toBe(ACCOUNT_MISMATCH_REASON);
  });
});

describe('POST /v1/ports/{id}/cancel', () => {
  it('cancels a draft, a submitted and an FOC-scheduled port; a canceled port never completes', async () => {
    const draft = await createPort(await portable(1));
    const c1 = await svc.call('POST', `/v1/ports/${draft.id}/cancel`);
    expect(c1.status).toBe(200);
    expect(c1.body.status).toBe('canceled');
    expectError(await svc.call('POST', `/v1/ports/${draft.id}/cancel`), 409, 'conflict');
    expectError(await svc.call('POST', `/v1/ports/${draft.id}/submit`), 409, 'conflict');
    // Its number is free again.
    expect((await svc.call('POST', '/v1/ports/check', { body: { phoneNumbers: draft.phoneNumbers } })).body.data[0].portable).toBe(true);

    const sub = await submitted(1);
    expect((await svc.call('POST', `/v1/ports/${sub.id}/cancel`)).body.status).toBe('canceled');
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs);
    expect((await getPort(sub.id)).body.status).toBe('canceled');

    const foc = await submitted(1);
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs);
    expect((await getPort(foc.id)).body.status).toBe('foc_scheduled');
    expect((await svc.call('POST', `/v1/ports/${foc.id}/cancel`)).body.status).toBe('canceled');
    await advance(svc, PORT_TIMINGS.focDateAfterSecs);
    expect((await getPort(foc.id)).body.status).toBe('canceled');
    expect((await ownedNumbers()).some((n) => n.phoneNumber === foc.phoneNumbers[0])).toBe(false);
    expect((await portEvents(foc.id)).map((e) => e.status)).toEqual(['draft', 'submitted', 'foc_scheduled', 'canceled']);
    expectError(await svc.call('POST', '/v1/ports/port_nope/cancel'), 404, 'not_found');
  });
});

describe('POST /v1/sandbox/ports/{id}/decision', () => {
  const decide = (id: string, b: unknown) => svc.call('POST', `/v1/sandbox/ports/${id}/decision`, { body: b });

  it('approved with an FOC date: foc_scheduled at once, completed at that date; the 24 h verdict does nothing', async () => {
    const port = await submitted(1);
    const focDate = new Date(svc.now() + 2 * DAY * 1000).toISOString();
    const res = await decide(port.id, { decision: 'approved', focDate });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'foc_scheduled', focDate });
    expectError(await decide(port.id, { decision: 'rejected' }), 409, 'conflict');
    await advance(svc, DAY);
    expect((await getPort(port.id)).body).toMatchObject({ status: 'foc_scheduled', focDate });
    await advance(svc, DAY);
    expect((await getPort(port.id)).body.status).toBe('completed');
    expect((await ownedNumbers()).some((n) => n.phoneNumber === port.phoneNumbers[0] && n.status === 'idle')).toBe(true);
    expect((await portEvents(port.id)).map((e) => e.status)).toEqual(['draft', 'submitted', 'foc_scheduled', 'completed']);
  });

  it('approved without a date: the FOC date is the default one from now', async () => {
    const port = await submitted(1);
    const res = await decide(port.id, { decision: 'approved' });
    expect(res.body.focDate).toBe(new Date(svc.now() + PORT_TIMINGS.focDateAfterSecs * 1000).toISOString());
  });

  it('rejected with a reason (or a default one)', async () => {
    const a = await submitted(1);
    expect((await decide(a.id, { decision: 'rejected', reason: 'name on the account differs' })).body).toMatchObject({ status: 'rejected', rejectionReason: 'name on the account differs' });
    const b = await submitted(1);
    expect((await decide(b.id, { decision: 'rejected' })).body).toMatchObject({ status: 'rejected', rejectionReason: PORT_REASONS.sandboxRejected });
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs);
    expect((await getPort(b.id)).body.status).toBe('rejected');
  });

  it('decides only a submitted port, and validates the body', async () => {
    const draft = await createPort(await portable(1));
    expectError(await decide(draft.id, { decision: 'approved' }), 409, 'conflict');
    const port = await submitted(1);
    expectError(await decide(port.id, { decision: 'maybe' }), 400, 'validation_error', ['body', 'decision']);
    expectError(await decide(port.id, { decision: 'approved', focDate: new Date(svc.now()).toISOString() }), 400, 'validation_error', ['body', 'focDate']);
    expectError(await decide(port.id, { decision: 'approved', focDate: 'tomorrow' }), 400, 'validation_error', ['body', 'focDate']);
    expectError(await decide(port.id, { decision: 'approved', reason: 'fine' }), 400, 'validation_error', ['body', 'reason']);
    expectError(await decide(port.id, { decision: 'rejected', focDate: new Date(svc.now() + 1000).toISOString() }), 400, 'validation_error', ['body', 'focDate']);
    expectError(await decide('port_nope', { decision: 'approved' }), 404, 'not_found');
    expect((await getPort(port.id)).body.status).toBe('submitted');
  });
});

describe('GET /v1/ports', () => {
  it('lists newest first, pages, and filters by status', async () => {
    const a = await createPort(await portable(1));
    const b = await createPort(await portable(1));
    await svc.call('POST', `/v1/ports/${a.id}/cancel`);
    const first = await svc.call('GET', '/v1/ports?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.data[0].id).toBe(b.id);
    expect(first.body.hasMore).toBe(true);
    const second = await svc.call('GET', `/v1/ports?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.data[0].id).toBe(a.id);
    const canceled = await svc.call('GET', '/v1/ports?status=canceled&limit=100');
    expect(canceled.body.data.length).toBeGreaterThan(0);
    expect(canceled.body.data.every((p: any) => p.status === 'canceled')).toBe(true);
    expect(canceled.body.data.some((p: any) => p.id === a.id)).toBe(true);
    expect(canceled.body.data.some((p: any) => p.id === b.id)).toBe(false);
    expectError(await svc.call('GET', '/v1/ports?status=lost'), 400, 'validation_error', ['query', 'status']);
    const bare = await svc.call('GET', '/v1/ports?limit=2&format=array');
    expect(Array.isArray(bare.body)).toBe(true);
    expect(bare.body.length).toBe(2);
    expectError(await getPort('port_nope'), 404, 'not_found');
  });
});

describe('sub-accounts', () => {
  it("a sub-account's ports and ported numbers are its own", async () => {
    const created = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Porting Co' } });
    expect(created.status).toBe(201);
    const headers = { 'service-subaccount': created.body.id };
    const port = await submitted(1, { headers });
    // The agency itself does not see it.
    expectError(await getPort(port.id), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/ports/${port.id}/cancel`), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/sandbox/ports/${port.id}/decision`, { body: { decision: 'approved' } }), 404, 'not_found');
    expect((await svc.call('GET', '/v1/ports?limit=100')).body.data.some((p: any) => p.id === port.id)).toBe(false);
    const theirs = await svc.call('GET', '/v1/ports?limit=100', { headers });
    expect(theirs.body.data.map((p: any) => p.id)).toEqual([port.id]);
    await advance(svc, PORT_TIMINGS.focScheduledAfterSecs + PORT_TIMINGS.focDateAfterSecs);
    expect((await getPort(port.id, headers)).body.status).toBe('completed');
    expect((await ownedNumbers(headers)).map((n) => n.phoneNumber)).toEqual(port.phoneNumbers);
    expect((await ownedNumbers()).some((n) => n.phoneNumber === port.phoneNumbers[0])).toBe(false);
    // Its events are in its own feed.
    expect((await portEvents(port.id, headers)).map((e) => e.status)).toEqual(['draft', 'submitted', 'foc_scheduled', 'completed']);
    expect(await portEvents(port.id)).toEqual([]);
  });
});

describe('the PIN', () => {
  it('is nowhere: not in responses, events, the idempotency record or the database files', async () => {
    const numbers = await portable(1);
    const res = await svc.call('POST', '/v1/ports', { body: body(numbers), headers: { 'idempotency-key': 'pin-check' } });
    expect(res.status).toBe(201);
    expect(await portHasPin(svc, res.body.id)).toBe(true);
    const replay = await svc.call('POST', '/v1/ports', { body: body(numbers), headers: { 'idempotency-key': 'pin-check' } });
    await attach(res.body.id, loa);
    await attach(res.body.id, bill);
    await svc.call('POST', `/v1/ports/${res.body.id}/submit`);
    const texts = [res.text, replay.text, (await getPort(res.body.id)).text, (await svc.call('GET', '/v1/ports?limit=100')).text, (await svc.call('GET', '/v1/events?limit=100&order=desc')).text];
    for (const t of texts) expect(t).not.toContain(PIN);
    // Every row of every table.
    expect(await svc.sql.tables()).toContain('ports');
    expect(await cellsContaining(svc, PIN)).toEqual([]);
  });

  itOnSqlite('is not in the database files or the WAL', async () => {
    const numbers = await portable(1);
    const res = await svc.call('POST', '/v1/ports', { body: body(numbers), headers: { 'idempotency-key': 'pin-check-files' } });
    expect(res.status).toBe(201);
    await attach(res.body.id, loa);
    await svc.call('POST', `/v1/ports/${res.body.id}/submit`);
    // The files themselves (the database and its WAL).
    const files = sqliteFiles(svc);
    expect(files.length).toBeGreaterThan(0);
    for (const { file, bytes } of files) expect(bytes.includes(PIN), file).toBe(false);
  });

  // The log the product writes: a detached `svc server start` logs every request to DATA/server.log,
  // and a background failure's line too.
  it('is not in the request log', async () => {
    assertBuilt();
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-ports-log-'));
    const env = { SVC_DATA_DIR: dataDir };
    try {
      const started = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--clock', 'manual'], { env });
      expect(started.code, started.stderr).toBe(0);
      const baseUrl = started.stdout.trim();
      const { liveKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { liveKey: string };
      const post = async (payload: unknown) => {
        const res = await request(`${baseUrl}/v1/ports`, { method: 'POST', headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
        return { status: res.statusCode, text: await res.body.text() };
      };
      const ok = await post(body(['+14157342000']));
      expect(ok.status, ok.text).toBe(201);
      expect((await post(body(['+15005550006']))).status).toBe(400);
      const stopped = await runSvcProcess(['server', 'stop'], { env });
      expect(stopped.code, stopped.stderr).toBe(0);
      const log = readFileSync(join(dataDir, 'server.log'), 'utf8');
      // The two requests are there; the PIN in their bodies is not.
      expect(log.split('\n').filter((l) => l.includes('"url":"/v1/ports"')).length).toBeGreaterThanOrEqual(2);
      expect(log).not.toContain(PIN);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

});

// contract §2: a port created with a live key (its fees live money, its numbers live
// ones) is a live key's to change; a test key's own port is its to change.
describe('test keys', () => {
  it('cannot add documents to, submit or cancel a port created with a live key; can their own', async () => {
    const live = await createPort(await portable(1, '415'));
    const testKey = svc.bootstrap.testKey;
    for (const [path, body] of [[`/v1/ports/${live.id}/documents`, loa], [`/v1/ports/${live.id}/submit`, undefined], [`/v1/ports/${live.id}/cancel`, undefined]] as const) {
      const res = await svc.call('POST', path, { key: testKey, body });
      expect(res.status, `${path} ${res.text}`).toBe(403);
      expect(res.body.error.message).toContain('a test key cannot change what a live key created');
    }
    expect((await getPort(live.id)).body).toMatchObject({ status: 'draft', documents: [] });
    const own = await createPort(await portable(1, '415'), { key: testKey });
    expect((await svc.call('POST', `/v1/ports/${own.id}/cancel`, { key: testKey })).body.status).toBe('canceled');
    expect((await svc.call('POST', `/v1/ports/${live.id}/cancel`)).body.status).toBe('canceled');
  });
});
