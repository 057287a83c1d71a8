import { beforeEach, describe, expect, it } from 'vitest';
import { freshFixtureEachTest, detailPaths, serviceErrorOf, type DomainFixture } from '../../../test/helpers/domain-fixture.js';
import {
  assignNumber,
  buyNumber,
  listNumbers,
  releaseNumber,
  resolveNumber,
  sandboxTollfreeDecision,
  searchNumbers,
  updateNumber,
  verifyTollfree,
} from './numbers.js';
import { PRICES } from '../../api/values/prices.js';
import { SearchNumbersBody, TollfreeDecisionBody, UpdateNumberBody, VerifyTollfreeBody } from '../../api/schemas/numbers.js';
import type { NumberRecord } from '../storage/numbers-repo.js';

const HOUR = 3600_000;
const TOLL_FREE_PREFIXES = ['800', '833', '844', '855', '866', '877', '888'];

let fx: DomainFixture;
freshFixtureEachTest((f) => (fx = f));

const search = async (q: Record<string, unknown>) => (await fx.deps.uow.read(async (tx) => searchNumbers(tx, SearchNumbersBody.parse(q))));
const update = async (n: NumberRecord, patch: Record<string, unknown>, mode: 'live' | 'test' = 'live') =>
  (await fx.deps.uow.write(async (tx) => await updateNumber(tx, fx.actor(mode), n.id, UpdateNumberBody.parse(patch))));
const stored = async (n: NumberRecord) => (await fx.deps.uow.read(async (tx) => await tx.numbers.getById(n.id)))!;

const SF_ADDRESS = { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' };
const GOOD_TFV = {
  businessName: 'Acme Dental',
  website: 'https://acme.example.com',
  useCase: 'Appointment reminders',
  useCaseSummary: 'Reminders for booked appointments',
  sampleMessage: 'Acme Dental: see you tomorrow at 10. Reply STOP to opt out.',
  optInWorkflow: 'Patients opt in on the booking form',
  monthlyVolume: 1000,
};
const verify = async (n: NumberRecord, body: Record<string, unknown> = GOOD_TFV) => (await fx.deps.uow.write(async (tx) => await verifyTollfree(tx, fx.actor(), n.id, VerifyTollfreeBody.parse(body))));
const decide = async (n: NumberRecord, body: Record<string, unknown>) => (await fx.deps.uow.write(async (tx) => await sandboxTollfreeDecision(tx, fx.actor(), n.id, TollfreeDecisionBody.parse(body))));

describe('searchNumbers', () => {
  it('a local search needs an area code, and the error names the area codes of the locality given; toll-free does not', async () => {
    const err = await serviceErrorOf(async () => (await fx.deps.uow.read(async (tx) => searchNumbers(tx, SearchNumbersBody.parse({ type: 'local' })))));
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'areaCode']]);
    const austin = await serviceErrorOf(async () => (await fx.deps.uow.read(async (tx) => searchNumbers(tx, SearchNumbersBody.parse({ locality: 'Austin' })))));
    expect(austin.details).toEqual([{ path: ['body', 'areaCode'], message: 'required for local numbers; area codes for Austin: 512, 737' }]);
    const nowhere = await serviceErrorOf(async () => (await fx.deps.uow.read(async (tx) => searchNumbers(tx, SearchNumbersBody.parse({ locality: 'Atlantis' })))));
    expect(nowhere.message).toMatch(/no area code is known for "Atlantis"/);
    expect((await fx.deps.uow.read(async (tx) => searchNumbers(tx, SearchNumbersBody.parse({ type: 'tollfree', limit: 1 }))))).toHaveLength(1);
  });

  it('answers local numbers of the area code, priced, up to the limit, the same each time', async () => {
    const found = await search({ areaCode: '415', limit: 20 });
    expect(found).toHaveLength(20);
    for (const n of found) {
      expect(n.phoneNumber).toMatch(/^\+1415\d{7}$/);
      expect(n).toMatchObject({ type: 'local', monthlyPriceCents: PRICES.localNumberMonthly, locality: 'San Francisco' });
    }
    expect(await search({ areaCode: '415', limit: 20 })).toEqual(found);
  });

  it('contains: the digits appear in the national number', async () => {
    const found = await search({ areaCode: '415', contains: '77', limit: 50 });
    expect(found.length).toBeGreaterThan(0);
    for (const n of found) expect(n.phoneNumber.slice(2)).toContain('77');
    expect((await search({ areaCode: '415', limit: 50 })).some((n) => !n.phoneNumber.slice(2).includes('77'))).toBe(true); // it did narrow
  });

  it('capabilities: every result has every capability asked for', async () => {
    const all = await search({ areaCode: '415', limit: 100 });
    expect(all.some((n) => !n.capabilities.mms)).toBe(true); // the filter has something to remove
    const mms = await search({ areaCode: '415', capabilities: ['mms', 'voice'], limit: 100 });
    expect(mms.length).toBeGreaterThan(0);
    for (const n of mms) expect(n.capabilities).toMatchObject({ mms: true, voice: true });
    // Nothing that fits is skipped: the fitting numbers among the unfiltered ones come first, in order.
    const fitting = all.filter((n) => n.capabilities.mms && n.capabilities.voice);
    expect(mms.slice(0, fitting.length)).toEqual(fitting);
  });

  it('toll-free: only the toll-free prefixes, at the toll-free price', async () => {
    const found = await search({ type: 'tollfree', limit: 30 });
    expect(found).toHaveLength(30);
    for (const n of found) {
      expect(TOLL_FREE_PREFIXES).toContain(n.phoneNumber.slice(2, 5));
      expect(n).toMatchObject({ type: 'tollfree', monthlyPriceCents: PRICES.tollfreeNumberMonthly, locality: null });
    }
    expect(new Set(found.map((n) => n.phoneNumber.slice(2, 5))).size).toBeGreaterThan(1);
    expect(await search({ type: 'tollfree', areaCode: '415', limit: 10 })).toEqual([]); // 415 is no toll-free prefix
  });

  it('never offers a number any account owns', async () => {
    const [first] = await search({ areaCode: '415', limit: 5 });
    expect(first).toBeDefined();
    (await fx.deps.uow.write(async (tx) => await buyNumber(tx, fx.actor('live', fx.stranger), first!.phoneNumber)));
    const again = await search({ areaCode: '415', limit: 5 });
    expect(again).toHaveLength(5);
    expect(again.map((n) => n.phoneNumber)).not.toContain(first!.phoneNumber);
  });
});

describe('buyNumber', () => {
  it('a local number: idle, owned by the actor, first month charged with a live key', async () => {
    const [offer] = await search({ areaCode: '212', limit: 1 });
    const n = (await fx.deps.uow.write(async (tx) => await buyNumber(tx, fx.actor('live'), offer!.phoneNumber)));
    expect(n.id).toMatch(/^num_/);
    expect(await stored(n)).toMatchObject({
      accountId: fx.agency.id,
      phoneNumber: offer!.phoneNumber,
      type: 'local',
      capabilities: offer!.capabilities,
      status: 'idle',
      campaignId: null,
      label: null,
      callerIdStatus: 'off',
      emergencyStatus: 'off',
      tfvStatus: 'not_applicable',
      releasedAt: null,
    });
    expect(await fx.charges(fx.agency)).toEqual([
      expect.objectContaining({ category: 'local_number', quantity: 1, amountCents: PRICES.localNumberMonthly, ref: n.id }),
    ]);
  });

  it('a toll-free number starts unverified and is charged at the toll-free price', async () => {
    const n = await fx.buyNumber({ type: 'tollfree', want: () => true });
    expect(n).toMatchObject({ type: 'tollfree', tfvStatus: 'unverified' });
    expect(await fx.charges(fx.agency)).toEqual([
      expect.objectContaining({ category: 'tollfree_number', amountCents: PRICES.tollfreeNumberMonthly, ref: n.id }),
    ]);
  });

  it('a test key buys without a charge', async () => {
    await fx.buyNumber({ mode: 'test' });
    expect(await fx.charges(fx.agency)).toEqual([]);
  });

  it('a number cannot be bought twice, by the same account or another', async () => {
    const n = await fx.buyNumber();
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await buyNumber(tx, fx.actor(), n.phoneNumber))))).code).toBe('conflict');
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await buyNumber(tx, fx.actor('live', fx.sub), n.phoneNumber))))).code).toBe('conflict');
    expect(await fx.charges(fx.agency)).toHaveLength(1);
    expect(await fx.charges(fx.sub)).toEqual([]);
  });

  it('only inventory numbers: the magic sender and unsold numbers are refused', async () => {
    for (const phone of ['+15005550006', '+14155550123', '+19995551234']) {
      expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await buyNumber(tx, fx.actor(), phone))))).code).toBe('conflict');
    }
    expect((await fx.deps.uow.write((tx) => listNumbers(tx, fx.actor(), {}, 10))).data).toEqual([]);
  });

  it('a released number can be bought again (by anyone)', async () => {
    const n = await fx.buyNumber();
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), n.id)));
    const again = (await fx.deps.uow.write(async (tx) => await buyNumber(tx, fx.actor('live', fx.sub), n.phoneNumber)));
    expect(again).toMatchObject({ accountId: fx.sub.id, status: 'idle' });
    expect(again.id).not.toBe(n.id);
  });
});

describe('updateNumber', () => {
  it('label: set, and cleared by an empty string or null', async () => {
    const n = await fx.buyNumber();
    expect((await update(n, { label: 'Front desk' })).label).toBe('Front desk');
    expect((await stored(n)).label).toBe('Front desk');
    expect((await update(n, { label: '' })).label).toBeNull();
    await update(n, { label: 'x' });
    expect((await update(n, { label: null })).label).toBeNull();
  });

  it('caller ID name: pending, then active 48 h later on the clock', async () => {
    const n = await fx.buyNumber();
    expect(await update(n, { callerIdName: { name: 'ACME DENTAL' } })).toMatchObject({ callerIdName: 'ACME DENTAL', callerIdStatus: 'pending' });
    await fx.advance(48 * HOUR - 1);
    expect((await stored(n)).callerIdStatus).toBe('pending');
    await fx.advance(1);
    expect((await stored(n)).callerIdStatus).toBe('active');
    // Clearing turns it off at once.
    expect(await update(n, { callerIdName: { name: null } })).toMatchObject({ callerIdName: null, callerIdStatus: 'off' });
  });

  it('a new name restarts the 48 h: the earlier request does not activate it', async () => {
    const n = await fx.buyNumber();
    await update(n, { callerIdName: { name: 'ACME' } });
    await fx.advance(24 * HOUR);
    await update(n, { callerIdName: { name: 'ACME DENTAL' } });
    await fx.advance(24 * HOUR);
    expect(await stored(n)).toMatchObject({ callerIdName: 'ACME DENTAL', callerIdStatus: 'pending' });
    await fx.advance(24 * HOUR);
    expect((await stored(n)).callerIdStatus).toBe('active');
    // Setting the same active name again changes nothing.
    expect((await update(n, { callerIdName: { name: 'ACME DENTAL' } })).callerIdStatus).toBe('active');
  });

  it('caller ID name needs voice', async () => {
    const n = await fx.buyNumber({ want: (c) => !c.voice });
    const err = await serviceErrorOf(async () => await update(n, { callerIdName: { name: 'ACME' } }));
    expect(err.code).toBe('channel_unsupported');
    expect(detailPaths(err)).toEqual([['body', 'callerIdName']]);
    expect((await stored(n)).callerIdStatus).toBe('off');
  });

  it('emergency: an address whose ZIP is in another state gets a suggestion, nothing changes', async () => {
    const n = await fx.buyNumber();
    const err = await serviceErrorOf(async () => await update(n, { label: 'Lobby', emergency: { enabled: true, address: { ...SF_ADDRESS, state: 'NV' } } }));
    expect(err.code).toBe('address_suggestion');
    expect(err.status).toBe(422);
    expect(err.details).toEqual({ suggested: { ...SF_ADDRESS, state: 'CA' } });
    // All or nothing: the label in the same patch was not applied.
    expect(await stored(n)).toMatchObject({ label: null, emergencyEnabled: false, emergencyStatus: 'off', emergencyAddress: null });
    expect((await fx.charges(fx.agency)).map((c) => c.category)).not.toContain('emergency');
  });

  it('emergency: an unknown ZIP is a validation error on the zip', async () => {
    const n = await fx.buyNumber();
    const err = await serviceErrorOf(async () => await update(n, { emergency: { enabled: true, address: { ...SF_ADDRESS, zip: '00000' } } }));
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'emergency', 'address', 'zip']]);
  });

  it('emergency: enabling needs an address, voice, and a local number', async () => {
    const n = await fx.buyNumber();
    expect(detailPaths(await serviceErrorOf(async () => await update(n, { emergency: { enabled: true } })))).toEqual([['body', 'emergency', 'address']]);
    const noVoice = await fx.buyNumber({ want: (c) => !c.voice });
    expect((await serviceErrorOf(async () => await update(noVoice, { emergency: { enabled: true, address: SF_ADDRESS } }))).code).toBe('channel_unsupported');
    const tf = await fx.buyNumber({ type: 'tollfree', want: () => true });
    expect((await serviceErrorOf(async () => await update(tf, { emergency: { enabled: true, address: SF_ADDRESS } }))).code).toBe('channel_unsupported');
  });

  it('emergency: pending, active after provisioning, charged once a month with a live key', async () => {
    const n = await fx.buyNumber();
    const updated = await update(n, { emergency: { enabled: true, address: { ...SF_ADDRESS, state: 'ca' } } });
    expect(updated).toMatchObject({ emergencyEnabled: true, emergencyStatus: 'pending', emergencyAddress: SF_ADDRESS }); // state upper-cased
    const emergencyCharges = async () => (await fx.charges(fx.agency)).filter((c) => c.category === 'emergency');
    expect(await emergencyCharges()).toEqual([expect.objectContaining({ amountCents: PRICES.emergencyMonthly, ref: n.id })]);
    await fx.advance(5 * 60_000);
    expect((await stored(n)).emergencyStatus).toBe('active');
    // Off and on again in the same month: not charged twice.
    await update(n, { emergency: { enabled: false } });
    expect(await stored(n)).toMatchObject({ emergencyEnabled: false, emergencyStatus: 'off' });
    await update(n, { emergency: { enabled: true, address: SF_ADDRESS } });
    expect(await emergencyCharges()).toHaveLength(1);
  });

  it('emergency with a test key is not charged', async () => {
    const n = await fx.buyNumber({ mode: 'test' });
    await update(n, { emergency: { enabled: true, address: SF_ADDRESS } }, 'test');
    expect(await fx.charges(fx.agency)).toEqual([]);
  });

  it('a released number cannot be updated', async () => {
    const n = await fx.buyNumber();
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), n.id)));
    expect((await serviceErrorOf(async () => await update(n, { label: 'x' }))).code).toBe('conflict');
  });
});

describe('releaseNumber', () => {
  it('releases: releasedAt set, campaign detached, emergency off; a second release is a conflict', async () => {
    const n = await fx.liveNumber();
    await update(n, { emergency: { enabled: true, address: SF_ADDRESS } });
    fx.clock.setTo(fx.clock.nowMs() + 1000);
    const released = (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), n.phoneNumber))); // by E.164 too
    expect(released).toMatchObject({ status: 'released', releasedAt: fx.clock.nowMs(), campaignId: null, emergencyEnabled: false, emergencyStatus: 'off' });
    expect((await stored(n)).status).toBe('released');
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), n.id))))).code).toBe('conflict');
  });

  it('a released number is listed only when asked for', async () => {
    const keep = await fx.buyNumber();
    const gone = await fx.buyNumber({ areaCode: '212' });
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), gone.id)));
    expect((await fx.deps.uow.write((tx) => listNumbers(tx, fx.actor(), {}, 10))).data.map((n) => n.id)).toEqual([keep.id]);
    expect((await fx.deps.uow.write((tx) => listNumbers(tx, fx.actor(), { status: 'released' }, 10))).data.map((n) => n.id)).toEqual([gone.id]);
  });

  it('a provisioning job due after the release does not bring anything back', async () => {
    const n = await fx.buyNumber();
    await update(n, { emergency: { enabled: true, address: SF_ADDRESS } });
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), n.id)));
    await fx.advance(HOUR);
    expect(await stored(n)).toMatchObject({ status: 'released', emergencyStatus: 'off' });
  });
});

describe('assignNumber', () => {
  it('an approved campaign makes the number live; null detaches it to idle', async () => {
    const n = await fx.buyNumber();
    const campaign = await fx.seedCampaign();
    expect((await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), n.id, campaign.id)))).toMatchObject({ status: 'live', campaignId: campaign.id });
    expect(await stored(n)).toMatchObject({ status: 'live', campaignId: campaign.id });
    expect((await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), n.id, null)))).toMatchObject({ status: 'idle', campaignId: null });
    expect(await stored(n)).toMatchObject({ status: 'idle', campaignId: null });
  });

  it.each(['draft', 'submitted', 'dca_review', 'rejected'] as const)('a %s campaign is a conflict', async (status) => {
    const n = await fx.buyNumber();
    const campaign = await fx.seedCampaign(fx.agency, status);
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), n.id, campaign.id))))).code).toBe('conflict');
    expect(await stored(n)).toMatchObject({ status: 'idle', campaignId: null });
  });

  it("another account's campaign is not found", async () => {
    const n = await fx.buyNumber();
    const theirs = await fx.seedCampaign(fx.sub);
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), n.id, theirs.id))))).code).toBe('not_found');
  });

  it('toll-free and sms-less numbers cannot join a campaign', async () => {
    const campaign = await fx.seedCampaign();
    const tf = await fx.buyNumber({ type: 'tollfree', want: () => true });
    const tfErr = await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), tf.id, campaign.id))));
    expect(tfErr.code).toBe('channel_unsupported');
    expect(detailPaths(tfErr)).toEqual([['body', 'campaignId']]);
    const voiceOnly = await fx.buyNumber({ want: (c) => !c.sms });
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), voiceOnly.id, campaign.id))))).code).toBe('channel_unsupported');
  });

  it('a released number cannot be assigned', async () => {
    const n = await fx.buyNumber();
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), n.id)));
    const campaign = await fx.seedCampaign();
    expect((await serviceErrorOf(async () => await fx.deps.uow.write(async (tx) => await assignNumber(tx, fx.actor(), n.id, campaign.id)))).code).toBe('conflict');
  });
});

describe('toll-free verification', () => {
  let tf: NumberRecord;
  beforeEach(async () => {
    tf = await fx.buyNumber({ type: 'tollfree', want: () => true });
  });

  it('applies to toll-free numbers only', async () => {
    const local = await fx.buyNumber();
    expect((await serviceErrorOf(async () => await verify(local))).code).toBe('conflict');
    expect((await stored(local)).tfvStatus).toBe('not_applicable');
  });

  it('pending, then verified 72 h later for a complete submission', async () => {
    expect(await verify(tf)).toMatchObject({ tfvStatus: 'pending', tfvRejectionReason: null });
    expect((await stored(tf)).tfvSubmission).toMatchObject({ businessName: 'Acme Dental', website: 'https://acme.example.com' });
    await fx.advance(72 * HOUR - 1);
    expect((await stored(tf)).tfvStatus).toBe('pending');
    await fx.advance(1);
    expect(await stored(tf)).toMatchObject({ tfvStatus: 'verified', tfvRejectionReason: null });
    expect((await serviceErrorOf(async () => await verify(tf))).code).toBe('conflict'); // verified is final
  });

  it('a second submission while pending is a conflict', async () => {
    await verify(tf);
    expect((await serviceErrorOf(async () => await verify(tf))).code).toBe('conflict');
  });

  it('rejected after 72 h without a website or opt-out words; a rejection can be resubmitted', async () => {
    await verify(tf, { ...GOOD_TFV, website: '', sampleMessage: 'Acme Dental: see you tomorrow at 10.' });
    expect((await stored(tf)).tfvSubmission).toMatchObject({ website: null });
    await fx.advance(72 * HOUR);
    const rejected = await stored(tf);
    expect(rejected.tfvStatus).toBe('rejected');
    expect(rejected.tfvRejectionReason).toContain('website');
    expect(rejected.tfvRejectionReason).toContain('opt-out');
    expect(await verify(tf)).toMatchObject({ tfvStatus: 'pending', tfvRejectionReason: null });
  });

  it('a resubmission is decided 72 h after itself, not after the first submission', async () => {
    await verify(tf);
    await decide(tf, { decision: 'rejected' });
    await fx.advance(HOUR);
    await verify(tf, { ...GOOD_TFV, website: null });
    await fx.advance(71 * HOUR); // the first review's time: it must not decide the new submission
    expect((await stored(tf)).tfvStatus).toBe('pending');
    await fx.advance(HOUR);
    expect((await stored(tf)).tfvStatus).toBe('rejected');
  });

  it('the sandbox decides a pending verification at once, and the 72 h review then does nothing', async () => {
    await verify(tf);
    expect(await decide(tf, { decision: 'action_required' })).toMatchObject({
      tfvStatus: 'action_required',
      tfvRejectionReason: 'the carrier asks for more information',
    });
    await fx.advance(72 * HOUR);
    expect((await stored(tf)).tfvStatus).toBe('action_required');
    // action_required may be resubmitted; then rejected with a reason given…
    await verify(tf);
    expect(await decide(tf, { decision: 'rejected', reason: 'Brand mismatch' })).toMatchObject({ tfvStatus: 'rejected', tfvRejectionReason: 'Brand mismatch' });
    await verify(tf);
    expect((await decide(tf, { decision: 'rejected' })).tfvRejectionReason).toBe('rejected by the carrier');
    // …and verified clears any reason.
    await verify(tf);
    expect(await decide(tf, { decision: 'verified', reason: 'ignored' })).toMatchObject({ tfvStatus: 'verified', tfvRejectionReason: null });
  });

  it('the sandbox can only decide a pending verification of a toll-free number', async () => {
    expect((await serviceErrorOf(async () => await decide(tf, { decision: 'verified' }))).code).toBe('conflict');
    expect((await stored(tf)).tfvStatus).toBe('unverified');
    const local = await fx.buyNumber();
    expect((await serviceErrorOf(async () => await decide(local, { decision: 'verified' }))).code).toBe('conflict');
  });
});

describe("another account's number is not found", () => {
  it('by id and by E.164, for every operation, and nothing changes', async () => {
    const n = await fx.buyNumber({ account: fx.sub });
    const tf = await fx.buyNumber({ account: fx.sub, type: 'tollfree', want: () => true });
    const agency = fx.actor('live'); // the parent agency acting as itself is not the sub-account
    const stranger = fx.actor('live', fx.stranger);
    for (const a of [agency, stranger]) {
      for (const ref of [n.id, n.phoneNumber]) {
        expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => resolveNumber(tx, a, ref)))).code).toBe('not_found');
        expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await updateNumber(tx, a, ref, UpdateNumberBody.parse({ label: 'mine' })))))).code).toBe('not_found');
        expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, a, ref))))).code).toBe('not_found');
        expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await assignNumber(tx, a, ref, null))))).code).toBe('not_found');
      }
      expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await verifyTollfree(tx, a, tf.id, VerifyTollfreeBody.parse(GOOD_TFV)))))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await sandboxTollfreeDecision(tx, a, tf.id, { decision: 'verified' }))))).code).toBe('not_found');
    }
    expect(await stored(n)).toMatchObject({ label: null, status: 'idle' });
    expect((await stored(tf)).tfvStatus).toBe('unverified');
    expect((await fx.deps.uow.write((tx) => resolveNumber(tx, fx.actor('live', fx.sub), n.phoneNumber))).id).toBe(n.id);
  });
});
