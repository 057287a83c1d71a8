import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, buy, enc, expectError } from './messages-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { fundAccount } from './helpers/money.js';
import { chargesFor } from './helpers/inspect.js';

// contract §5: PATCH (label, caller ID name, emergency), toll-free verification; §9 tollfree-decision.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  // This file buys, registers and calls more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
});
afterAll(async () => {
  await svc?.stop();
});

const patch = (id: string, body: unknown) => svc.call('PATCH', `/v1/numbers/${id}`, { body });
const get = async (id: string) => (await svc.call('GET', `/v1/numbers/${id}`)).body;
const address = { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' };

describe('PATCH /v1/numbers/{id}', () => {
  it('sets and clears the label', async () => {
    const n = await buy(svc);
    expect((await patch(n.id, { label: 'Front desk' })).body.label).toBe('Front desk');
    expect((await patch(enc(n.phoneNumber), { label: 'x'.repeat(64) })).body.label).toBe('x'.repeat(64));
    expect((await patch(n.id, { label: null })).body.label).toBeNull();
    expect((await patch(n.id, { label: '' })).body.label).toBeNull();
  });

  it('rejects bad patches and changes nothing', async () => {
    const n = await buy(svc);
    await patch(n.id, { label: 'keep' });
    const before = await get(n.id);
    expectError(await patch(n.id, { label: 'x'.repeat(65) }), 400, 'validation_error', ['body', 'label']);
    expectError(await patch(n.id, {}), 400, 'validation_error', ['body']);
    expectError(await patch(n.id, { nickname: 'x' }), 400, 'validation_error', ['body', 'nickname']);
    expectError(await patch(n.id, { callerIdName: { name: '' } }), 400, 'validation_error', ['body', 'callerIdName', 'name']);
    expectError(await patch(n.id, { callerIdName: { name: 'Sixteen chars xx' } }), 400, 'validation_error', ['body', 'callerIdName', 'name']);
    expectError(await patch(n.id, { callerIdName: { name: 'Bad<chars>' } }), 400, 'validation_error', ['body', 'callerIdName', 'name']);
    expectError(await patch(n.id, { callerIdName: 'Acme' }), 400, 'validation_error', ['body', 'callerIdName']);
    expectError(await patch(n.id, { emergency: { enabled: true } }), 400, 'validation_error', ['body', 'emergency', 'address']);
    expectError(await patch(n.id, { emergency: { enabled: true, address: { ...address, zip: '9410' } } }), 400, 'validation_error', ['body', 'emergency', 'address', 'zip']);
    expectError(await patch(n.id, { emergency: { enabled: true, address: { ...address, state: 'California' } } }), 400, 'validation_error', ['body', 'emergency', 'address', 'state']);
    expectError(await patch(n.id, { emergency: { enabled: true, address: { ...address, zip: '00001' } } }), 400, 'validation_error', ['body', 'emergency', 'address', 'zip']);
    expectError(await patch(n.id, { emergency: { enabled: true, address: { street: '1 Market St', city: 'SF', state: 'CA' } } }), 400, 'validation_error', ['body', 'emergency', 'address', 'zip']);
    // A valid label with an invalid emergency address: all or nothing.
    const mixed = await patch(n.id, { label: 'changed', emergency: { enabled: true, address: { ...address, state: 'NY' } } });
    expectError(mixed, 422, 'address_suggestion');
    expect(await get(n.id)).toEqual(before);
  });

  it('moves caller ID name to pending, then active 48 h later on the clock', async () => {
    const n = await buy(svc);
    const set = await patch(n.id, { callerIdName: { name: 'ACME Dental' } });
    expect(set.status).toBe(200);
    expect(set.body.callerIdName).toEqual({ name: 'ACME Dental', status: 'pending' });
    await advance(svc, 47 * 3600);
    expect((await get(n.id)).callerIdName.status).toBe('pending');
    await advance(svc, 3600);
    expect((await get(n.id)).callerIdName).toEqual({ name: 'ACME Dental', status: 'active' });
    // The same name again changes nothing; a new name propagates again; null turns it off.
    expect((await patch(n.id, { callerIdName: { name: 'ACME Dental' } })).body.callerIdName.status).toBe('active');
    expect((await patch(n.id, { callerIdName: { name: 'ACME Clinic' } })).body.callerIdName).toEqual({ name: 'ACME Clinic', status: 'pending' });
    expect((await patch(n.id, { callerIdName: { name: null } })).body.callerIdName).toEqual({ name: null, status: 'off' });
    await advance(svc, 49 * 3600);
    expect((await get(n.id)).callerIdName).toEqual({ name: null, status: 'off' });
  });

  it('a superseded caller ID job does not activate the newer name early', async () => {
    const n = await buy(svc);
    await patch(n.id, { callerIdName: { name: 'First' } });
    await advance(svc, 24 * 3600);
    await patch(n.id, { callerIdName: { name: 'Second' } });
    await advance(svc, 25 * 3600); // the first job falls due here
    expect((await get(n.id)).callerIdName).toEqual({ name: 'Second', status: 'pending' });
    await advance(svc, 24 * 3600);
    expect((await get(n.id)).callerIdName).toEqual({ name: 'Second', status: 'active' });
  });

  it('suggests the state that fits the ZIP (422 address_suggestion)', async () => {
    const n = await buy(svc);
    const res = await patch(n.id, { emergency: { enabled: true, address: { ...address, street2: 'Suite 5', state: 'NV' } } });
    expectError(res, 422, 'address_suggestion');
    expect(res.body.error.details).toEqual({ suggested: { ...address, street2: 'Suite 5', state: 'CA' } });
    expect((await get(n.id)).emergency).toEqual({ enabled: false, address: null, status: 'off' });
    // Resubmitting the suggestion works.
    const ok = await patch(n.id, { emergency: { enabled: true, address: res.body.error.details.suggested } });
    expect(ok.status).toBe(200);
  });

  it('enables emergency calling: pending, then active; charges the first month once (live); disables', async () => {
    const n = await buy(svc);
    const chargesBefore = (await chargesFor(svc, svc.bootstrap.accountId)).length;
    const on = await patch(n.id, { emergency: { enabled: true, address: { ...address, state: 'ca' } } });
    expect(on.status).toBe(200);
    expect(on.body.emergency).toEqual({ enabled: true, address, status: 'pending' });
    await advance(svc, 5 * 60);
    expect((await get(n.id)).emergency.status).toBe('active');
    const added = (await chargesFor(svc, svc.bootstrap.accountId)).slice(chargesBefore);
    expect(added).toMatchObject([{ category: 'emergency', amountCents: PRICES.emergencyMonthly, ref: n.id }]);

    const off = await patch(n.id, { emergency: { enabled: false } });
    expect(off.body.emergency).toEqual({ enabled: false, address, status: 'off' });
    // Back on in the same month: the address on file is used, and no second charge.
    const back = await patch(n.id, { emergency: { enabled: true } });
    expect(back.body.emergency).toEqual({ enabled: true, address, status: 'pending' });
    expect((await chargesFor(svc, svc.bootstrap.accountId)).slice(chargesBefore)).toHaveLength(1);
  });

  it('refuses emergency and caller ID where the number cannot carry them', async () => {
    const tf = await buy(svc, { type: 'tollfree', want: () => true });
    expectError(await patch(tf.id, { emergency: { enabled: true, address } }), 422, 'channel_unsupported');
    const smsOnly = await buy(svc, { want: (c) => !c.voice });
    expectError(await patch(smsOnly.id, { callerIdName: { name: 'Acme' } }), 422, 'channel_unsupported');
    expectError(await patch(smsOnly.id, { emergency: { enabled: true, address } }), 422, 'channel_unsupported');
    expect((await get(smsOnly.id)).callerIdName.status).toBe('off');
  });
});

describe('toll-free verification', () => {
  const submission = {
    businessName: 'Acme Dental',
    website: 'https://acme.example',
    useCase: 'Appointment reminders',
    useCaseSummary: 'Reminders for booked appointments',
    sampleMessage: 'Acme Dental: your cleaning is tomorrow at 9am. Reply STOP to opt out.',
    optInWorkflow: 'Patients opt in on the booking form',
    monthlyVolume: 1000,
  };
  const verify = (id: string, body: unknown = submission) => svc.call('POST', `/v1/numbers/${id}/verify-tollfree`, { body });
  const decide = (id: string, body: unknown) => svc.call('POST', `/v1/sandbox/numbers/${id}/tollfree-decision`, { body });

  it('submits (pending), refuses while pending, and is verified 72 h later', async () => {
    const tf = await buy(svc, { type: 'tollfree', want: () => true });
    const res = await verify(tf.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: tf.id, tfvStatus: 'pending', tfvRejectionReason: null });
    expectError(await verify(tf.id), 409, 'conflict');
    await advance(svc, 71 * 3600);
    expect((await get(tf.id)).tfvStatus).toBe('pending');
    // The advance says what it ran: the decision, as one job of its kind.
    const moved = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 3600 } });
    expect(moved.status).toBe(200);
    expect(moved.body.ran).toContainEqual({ kind: 'number.tollfree_review', label: 'toll-free verification decisions', jobs: 1, items: 1 });
    expect((await get(tf.id)).tfvStatus).toBe('verified');
    expectError(await verify(tf.id), 409, 'conflict');
    // Nothing fell due: nothing ran.
    expect((await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } })).body.ran).toEqual([]);
  });

  it('rejects a missing website or a sample without opt-out words, and allows a resubmission', async () => {
    const tf = await buy(svc, { type: 'tollfree', want: () => true });
    const { website: _omit, ...noWebsite } = submission;
    await verify(tf.id, { ...noWebsite, sampleMessage: 'Your cleaning is tomorrow at 9am.' });
    await advance(svc, 72 * 3600);
    const rejected = await get(tf.id);
    expect(rejected.tfvStatus).toBe('rejected');
    expect(rejected.tfvRejectionReason).toMatch(/website/);
    expect(rejected.tfvRejectionReason).toMatch(/opt-out/);

    const again = await verify(enc(tf.phoneNumber), { ...submission, sampleMessage: 'Acme: see you soon. Text UNSUBSCRIBE to stop these.' });
    expect(again.body).toMatchObject({ tfvStatus: 'pending', tfvRejectionReason: null });
    await advance(svc, 72 * 3600);
    expect((await get(tf.id)).tfvStatus).toBe('verified');

    const tf2 = await buy(svc, { type: 'tollfree', want: () => true });
    await verify(tf2.id, { ...submission, website: '' });
    await advance(svc, 72 * 3600);
    expect(await get(tf2.id)).toMatchObject({ tfvStatus: 'rejected', tfvRejectionReason: expect.stringMatching(/website/) });
  });

  it('refuses local numbers, released numbers and bad bodies; nothing changes', async () => {
    const local = await buy(svc);
    expectError(await verify(local.id), 409, 'conflict');
    expect((await get(local.id)).tfvStatus).toBe('not_applicable');
    const tf = await buy(svc, { type: 'tollfree', want: () => true });
    expectError(await verify(tf.id, { ...submission, monthlyVolume: 'lots' }), 400, 'validation_error', ['body', 'monthlyVolume']);
    expectError(await verify(tf.id, { ...submission, businessName: '' }), 400, 'validation_error', ['body', 'businessName']);
    expectError(await verify(tf.id, { ...submission, website: 'not a url' }), 400, 'validation_error', ['body', 'website']);
    expectError(await verify(tf.id, { ...submission, sampleMessage: undefined }), 400, 'validation_error', ['body', 'sampleMessage']);
    expectError(await verify(tf.id, { ...submission, extra: true }), 400, 'validation_error', ['body', 'extra']);
    expect((await get(tf.id)).tfvStatus).toBe('unverified');
    await svc.call('POST', `/v1/numbers/${tf.id}/release`);
    expectError(await verify(tf.id), 409, 'conflict');
  });

  it('sandbox decisions decide at once, and the 72 h review then does nothing', async () => {
    const tf = await buy(svc, { type: 'tollfree', want: () => true });
    expectError(await decide(tf.id, { decision: 'verified' }), 409, 'conflict'); // nothing pending
    await verify(tf.id);
    const ask = await decide(tf.id, { decision: 'action_required', reason: 'Show the opt-in screenshot' });
    expect(ask.status).toBe(200);
    expect(ask.body).toMatchObject({ tfvStatus: 'action_required', tfvRejectionReason: 'Show the opt-in screenshot' });
    await advance(svc, 72 * 3600);
    expect((await get(tf.id)).tfvStatus).toBe('action_required');

    await verify(tf.id);
    const no = await decide(enc(tf.phoneNumber), { decision: 'rejected' });
    expect(no.body).toMatchObject({ tfvStatus: 'rejected', tfvRejectionReason: expect.any(String) });
    await verify(tf.id);
    const yes = await decide(tf.id, { decision: 'verified', reason: 'ignored' });
    expect(yes.body).toMatchObject({ tfvStatus: 'verified', tfvRejectionReason: null });

    expectError(await decide(tf.id, { decision: 'maybe' }), 400, 'validation_error', ['body', 'decision']);
    const local = await buy(svc);
    expectError(await decide(local.id, { decision: 'verified' }), 409, 'conflict');
    expectError(await decide('num_missing', { decision: 'verified' }), 404, 'not_found');
  });
});

describe('the OpenAPI document', () => {
  it('describes the messaging and numbers routes with their decisions', async () => {
    const doc = (await svc.call('GET', '/openapi.json', { key: null })).body;
    for (const path of ['/v1/messages', '/v1/messages/{id}', '/v1/conversations', '/v1/conversations/{counterparty}', '/v1/numbers/search', '/v1/numbers/buy', '/v1/numbers/{id}', '/v1/numbers/{id}/release', '/v1/numbers/{id}/assign', '/v1/numbers/{id}/verify-tollfree', '/v1/sandbox/inbound-messages', '/v1/sandbox/numbers/{id}/tollfree-decision']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/v1/messages'].post.description).toMatch(/\+15005550006/);
    expect(doc.paths['/v1/numbers/{id}'].patch.description).toMatch(/address_suggestion/);
  });
});
