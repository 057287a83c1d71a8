import { beforeEach, describe, expect, it } from 'vitest';
import { freshFixtureEachTest, detailPaths, serviceErrorOf, type DomainFixture } from '../../../test/helpers/domain-fixture.js';
import { applyCarrierReport, getMessage, receiveInbound, sendMessage } from './messages.js';
import type { Actor } from './actor.js';
import { releaseNumber } from './numbers.js';
import { PRICES } from '../../api/values/prices.js';
import {
  InboundMessageBody,
  MEDIA_URLS_MAX,
  MESSAGE_BODY_MAX,
  SendMessageBody,
  TEST_SENDER,
} from '../../api/schemas/messages.js';
import { FAILED_DESTINATION, UNDELIVERED_DESTINATION } from '../world/carrier.js';
import type { NumberRecord } from '../storage/numbers-repo.js';

// The domain receives bodies already parsed by SendMessageBody / InboundMessageBody (the route's
// schema): E.164, the body and media limits and "body or media" are enforced there, the rest in
// sendMessage. These tests go through both, without HTTP.

const TO = '+14155550123';
const TO_2 = '+14155550124';

let fx: DomainFixture;
freshFixtureEachTest((f) => (fx = f));

const send = async (actor: Actor, input: Record<string, unknown>) => await fx.deps.uow.write((tx) => sendMessage(tx, actor, SendMessageBody.parse(input)));
const stored = async (id: string) => (await fx.deps.uow.read(async (tx) => await tx.messages.getById(id)))!;
const issuePaths = (input: unknown): unknown[] => {
  const r = SendMessageBody.safeParse(input);
  expect(r.success).toBe(false);
  return r.success ? [] : r.error.issues.map((i) => i.path);
};

describe('the send body (SendMessageBody, parsed before the domain)', () => {
  it('to and from must be E.164', () => {
    expect(issuePaths({ to: '4155550123', from: TEST_SENDER, body: 'hi' })).toContainEqual(['to']);
    expect(issuePaths({ to: TO, from: '+1 415 555 0100', body: 'hi' })).toContainEqual(['from']);
    expect(issuePaths({ to: '+0123', from: TEST_SENDER, body: 'hi' })).toContainEqual(['to']);
    expect(SendMessageBody.safeParse({ to: TO, from: TEST_SENDER, body: 'hi' }).success).toBe(true);
  });

  it(`the body is at most ${MESSAGE_BODY_MAX} characters`, () => {
    expect(MESSAGE_BODY_MAX).toBe(1600);
    expect(SendMessageBody.safeParse({ to: TO, from: TEST_SENDER, body: 'a'.repeat(1600) }).success).toBe(true);
    expect(issuePaths({ to: TO, from: TEST_SENDER, body: 'a'.repeat(1601) })).toContainEqual(['body']);
  });

  it(`at most ${MEDIA_URLS_MAX} media URLs, each http(s)`, () => {
    expect(MEDIA_URLS_MAX).toBe(10);
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://cdn.example.com/${i}.png`);
    expect(SendMessageBody.safeParse({ to: TO, from: TEST_SENDER, mediaUrls: urls(10) }).success).toBe(true);
    expect(issuePaths({ to: TO, from: TEST_SENDER, mediaUrls: urls(11) })).toContainEqual(['mediaUrls']);
    expect(issuePaths({ to: TO, from: TEST_SENDER, mediaUrls: ['ftp://cdn.example.com/a.png'] })).toContainEqual(['mediaUrls', 0]);
  });

  it('needs a body or media; an empty body and empty media count as none', () => {
    expect(issuePaths({ to: TO, from: TEST_SENDER })).toContainEqual(['body']);
    expect(issuePaths({ to: TO, from: TEST_SENDER, body: '', mediaUrls: [] })).toContainEqual(['body']);
    expect(SendMessageBody.safeParse({ to: TO, from: TEST_SENDER, mediaUrls: ['https://cdn.example.com/a.png'] }).success).toBe(true);
  });

  it('the inbound body has the same rules', () => {
    expect(InboundMessageBody.safeParse({ from: TO, to: '+14155550100' }).success).toBe(false);
    expect(InboundMessageBody.safeParse({ from: 'nope', to: '+14155550100', body: 'hi' }).success).toBe(false);
  });
});

describe('sendMessage: who may send from what', () => {
  it('from must be a number of the account', async () => {
    const err = await serviceErrorOf(async () => await send(fx.actor('test'), { to: TO, from: '+14155559876', body: 'hi' }));
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'from']]);
    expect((await fx.deps.uow.read(async (tx) => await tx.messages.list(fx.agency.id, {}, 10))).data).toEqual([]);
  });

  it("another account's number is not the caller's to send from", async () => {
    const theirs = await fx.buyNumber({ account: fx.sub });
    const err = await serviceErrorOf(async () => await send(fx.actor('test'), { to: TO, from: theirs.phoneNumber, body: 'hi' }));
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'from']]);
    // …while the sub-account itself may.
    expect((await send(fx.actor('test', fx.sub), { to: TO, from: theirs.phoneNumber, body: 'hi' })).accountId).toBe(fx.sub.id);
  });

  it('the magic test sender needs no number and no campaign, even with a live key, and is a test send', async () => {
    const m = await send(fx.actor('live'), { to: TO, from: TEST_SENDER, body: 'hi' });
    expect(m.test).toBe(true);
    expect(m.numberId).toBeNull();
    expect((await stored(m.id)).status).toBe('delivered');
    expect(await fx.charges(fx.agency)).toEqual([]);
  });

  it('a live send from a local number needs an approved campaign', async () => {
    const n = await fx.buyNumber();
    const chargesBefore = (await fx.charges(fx.agency)).length;
    const err = await serviceErrorOf(async () => await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'hi' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain('campaign');
    expect((await fx.deps.uow.read(async (tx) => await tx.messages.list(fx.agency.id, {}, 10))).data).toEqual([]);
    expect(await fx.charges(fx.agency)).toHaveLength(chargesBefore);
  });

  it('a campaign that is no longer approved does not let a live send through', async () => {
    const n = await fx.liveNumber();
    await fx.deps.uow.write(async (tx) => await tx.campaigns.setStatus(n.campaignId!, 'rejected', fx.clock.nowMs()));
    expect((await serviceErrorOf(async () => await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'hi' }))).code).toBe('conflict');
  });

  it('a test key sends from a local number without a campaign', async () => {
    const n = await fx.buyNumber();
    const m = await send(fx.actor('test'), { to: TO, from: n.phoneNumber, body: 'hi' });
    expect(m.test).toBe(true);
    expect(m.numberId).toBe(n.id);
  });

  it('a toll-free number is not under 10DLC: a live send needs no campaign', async () => {
    const tf = await fx.buyNumber({ type: 'tollfree', want: (c) => c.sms });
    const m = await send(fx.actor('live'), { to: TO, from: tf.phoneNumber, body: 'hi' });
    expect(m.test).toBe(false);
    expect(m.status).toBe('queued');
  });

  it('media needs the mms capability; the refusal names from', async () => {
    const n = await fx.liveNumber({ want: (c) => c.sms && !c.mms });
    const err = await serviceErrorOf(async () => await send(fx.actor('live'), { to: TO, from: n.phoneNumber, mediaUrls: ['https://cdn.example.com/a.png'] }));
    expect(err.code).toBe('channel_unsupported');
    expect(err.status).toBe(422);
    expect(detailPaths(err)).toEqual([['body', 'from']]);
    // The same number texts fine.
    expect((await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'hi' })).channel).toBe('sms');
  });

  it('a number without sms cannot text at all', async () => {
    const voiceOnly = await fx.buyNumber({ want: (c) => !c.sms });
    const err = await serviceErrorOf(async () => await send(fx.actor('test'), { to: TO, from: voiceOnly.phoneNumber, body: 'hi' }));
    expect(err.code).toBe('channel_unsupported');
  });

  it('a released number is refused with a conflict (not a validation error)', async () => {
    const n = await fx.liveNumber();
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor('live'), n.id)));
    const err = await serviceErrorOf(async () => await send(fx.actor('test'), { to: TO, from: n.phoneNumber, body: 'hi' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain('released');
  });
});

describe('sendMessage: what is recorded', () => {
  let n: NumberRecord;
  beforeEach(async () => {
    n = await fx.liveNumber();
  });

  it.each([
    ['160 GSM-7 characters', 'a'.repeat(160), 1],
    ['161 GSM-7 characters', 'a'.repeat(161), 2],
    ['extension characters count twice (80 €)', '€'.repeat(80), 1],
    ['extension characters count twice (81 €)', '€'.repeat(81), 2],
    ['70 UCS-2 characters', '中'.repeat(70), 1],
    ['71 UCS-2 characters', '中'.repeat(71), 2],
    ['one emoji switches a long body to UCS-2', `${'a'.repeat(69)}😀`, 2],
  ])('segments: %s → %i', async (_label, body, segments) => {
    const m = await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body });
    expect(m.segments).toBe(segments);
    expect((await stored(m.id)).segments).toBe(segments);
  });

  it('an outbound SMS is recorded queued, with its parties and no media', async () => {
    const m = await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'hello' });
    expect(m.id).toMatch(/^msg_/);
    expect(await stored(m.id)).toMatchObject({
      accountId: fx.agency.id,
      numberId: n.id,
      direction: 'outbound',
      from: n.phoneNumber,
      to: TO,
      counterparty: TO,
      body: 'hello',
      status: 'queued',
      channel: 'sms',
      media: null,
      reason: null,
      test: false,
      providerMessageId: null,
      createdAt: fx.clock.nowMs(),
    });
  });

  it('media makes an MMS with typed media entries; a media-only message has 0 segments', async () => {
    const m = await send(fx.actor('live'), {
      to: TO,
      from: n.phoneNumber,
      mediaUrls: ['https://cdn.example.com/photos/cat.JPG', 'https://cdn.example.com/v/clip.mp4?x=1', 'https://cdn.example.com/'],
    });
    expect(m.channel).toBe('mms');
    expect(m.segments).toBe(0);
    expect(m.body).toBe('');
    expect((await stored(m.id)).media).toEqual([
      { url: 'https://cdn.example.com/photos/cat.JPG', contentType: 'image/jpeg', filename: 'cat.JPG' },
      { url: 'https://cdn.example.com/v/clip.mp4?x=1', contentType: 'video/mp4', filename: 'clip.mp4' },
      { url: 'https://cdn.example.com/', contentType: 'application/octet-stream', filename: 'media-3' },
    ]);
  });
});

describe('the status machine on the manual clock', () => {
  it('a live send: queued → sending → sent → delivered as the clock advances, charged at sent', async () => {
    const n = await fx.liveNumber();
    const chargesAtStart = (await fx.charges(fx.agency)).length;
    const m = await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'a'.repeat(161) });
    expect((await stored(m.id)).status).toBe('queued');

    // Time frozen: nothing moves.
    await fx.advance(0);
    expect((await stored(m.id)).providerMessageId).toMatch(/^SM/); // handed to the carrier at once
    expect((await stored(m.id)).status).toBe('queued');

    await fx.advance(200);
    expect((await stored(m.id)).status).toBe('sending');
    expect(await fx.events(fx.agency, 'message.status')).toEqual([]); // sending is not reported
    expect(await fx.charges(fx.agency)).toHaveLength(chargesAtStart);

    await fx.advance(200);
    expect((await stored(m.id)).status).toBe('sent');
    const charges = (await fx.charges(fx.agency)).slice(chargesAtStart);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ category: 'sms', quantity: 2, amountCents: 2 * PRICES.smsSegment, ref: m.id });

    await fx.advance(400);
    expect((await stored(m.id)).status).toBe('delivered');
    expect((await stored(m.id)).reason).toBeNull();

    const events = await fx.events(fx.agency, 'message.status');
    expect(events.map((e) => e.body.status)).toEqual(['sent', 'delivered']);
    expect(events[0]!.body).toMatchObject({ type: 'message.status', messageId: m.id, status: 'sent', reason: null });
    expect(events[1]!.createdAt - events[0]!.createdAt).toBe(400);
    // Advancing further changes nothing and charges nothing more.
    await fx.advance(3_600_000);
    expect(await fx.events(fx.agency, 'message.status')).toHaveLength(2);
    expect((await fx.charges(fx.agency)).slice(chargesAtStart)).toHaveLength(1);
  });

  it('one advance past the whole course runs every step in order', async () => {
    const n = await fx.liveNumber();
    const m = await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'hi' });
    const before = fx.clock.nowMs();
    await fx.advance(60_000);
    expect((await stored(m.id)).status).toBe('delivered');
    const events = await fx.events(fx.agency, 'message.status');
    expect(events.map((e) => [e.body.status, e.createdAt - before])).toEqual([
      ['sent', 400],
      ['delivered', 800],
    ]);
  });

  it.each([
    [FAILED_DESTINATION, 'failed', 'invalid destination'],
    [UNDELIVERED_DESTINATION, 'undelivered', 'blocked by carrier'],
  ])('live to %s ends %s (%s), passing through sent (and billed there)', async (to, status, reason) => {
    const n = await fx.liveNumber();
    const chargesAtStart = (await fx.charges(fx.agency)).length;
    const m = await send(fx.actor('live'), { to, from: n.phoneNumber, body: 'hi' });
    await fx.advance(1_000);
    expect(await stored(m.id)).toMatchObject({ status, reason });
    const events = await fx.events(fx.agency, 'message.status');
    expect(events.map((e) => [e.body.status, e.body.reason])).toEqual([
      ['sent', null],
      [status, reason],
    ]);
    expect((await fx.charges(fx.agency)).slice(chargesAtStart).map((c) => c.category)).toEqual(['sms']);
  });

  it.each([
    [TO, 'delivered', null],
    [FAILED_DESTINATION, 'failed', 'invalid destination'],
    [UNDELIVERED_DESTINATION, 'undelivered', 'blocked by carrier'],
  ])('a test send to %s is final (%s) when sendMessage returns, never billed', async (to, status, reason) => {
    const n = await fx.buyNumber({ mode: 'test' });
    const m = await send(fx.actor('test'), { to, from: n.phoneNumber, body: 'hi' });
    expect(m.status).toBe('queued'); // the record as accepted
    expect(await stored(m.id)).toMatchObject({ status, reason, test: true, providerMessageId: null });
    expect((await fx.events(fx.agency, 'message.status')).map((e) => e.body.status)).toEqual(['sent', status]);
    expect(await fx.charges(fx.agency)).toEqual([]);
  });

  it('a live MMS is charged once per message, not per segment', async () => {
    const n = await fx.liveNumber();
    const chargesAtStart = (await fx.charges(fx.agency)).length;
    const m = await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'a'.repeat(400), mediaUrls: ['https://cdn.example.com/a.png'] });
    await fx.advance(1_000);
    expect((await fx.charges(fx.agency)).slice(chargesAtStart)).toEqual([
      expect.objectContaining({ category: 'mms', quantity: 1, amountCents: PRICES.mmsMessage, ref: m.id }),
    ]);
  });

  it('a test key sending from a live number is never billed', async () => {
    const n = await fx.liveNumber();
    const chargesAtStart = (await fx.charges(fx.agency)).length;
    await send(fx.actor('test'), { to: TO, from: n.phoneNumber, body: 'a'.repeat(500) });
    await fx.advance(10_000);
    expect(await fx.charges(fx.agency)).toHaveLength(chargesAtStart);
  });

  it('a carrier report that does not follow the state table changes nothing', async () => {
    const n = await fx.liveNumber();
    const m = await send(fx.actor('live'), { to: TO, from: n.phoneNumber, body: 'hi' });
    // queued cannot jump to delivered, nor to sent.
    expect((await fx.deps.uow.write(async (tx) => await applyCarrierReport(tx, m.id, 'delivered', null)))).toBe(false);
    expect((await fx.deps.uow.write(async (tx) => await applyCarrierReport(tx, m.id, 'sent', null)))).toBe(false);
    expect((await stored(m.id)).status).toBe('queued');
    await fx.advance(400);
    expect((await stored(m.id)).status).toBe('sent');
    const chargesAtSent = (await fx.charges(fx.agency)).length;
    // A duplicate `sent` (a replayed job, a repeated callback) is not billed twice.
    expect((await fx.deps.uow.write(async (tx) => await applyCarrierReport(tx, m.id, 'sent', null)))).toBe(false);
    expect(await fx.charges(fx.agency)).toHaveLength(chargesAtSent);
    expect(await fx.events(fx.agency, 'message.status')).toHaveLength(1);
    await fx.advance(1_000);
    const chargesAfter = (await fx.charges(fx.agency)).length;
    // A late duplicate after the end: no move, no second charge, no event.
    expect((await fx.deps.uow.write(async (tx) => await applyCarrierReport(tx, m.id, 'sent', null)))).toBe(false);
    expect((await fx.deps.uow.write(async (tx) => await applyCarrierReport(tx, m.id, 'failed', 'late')))).toBe(false);
    expect(await stored(m.id)).toMatchObject({ status: 'delivered', reason: null });
    expect(await fx.charges(fx.agency)).toHaveLength(chargesAfter);
    expect(await fx.events(fx.agency, 'message.status')).toHaveLength(2);
    expect((await fx.deps.uow.write(async (tx) => await applyCarrierReport(tx, 'msg_missing', 'sending', null)))).toBe(false);
  });

  it("a sub-account's messages, events and charges are its own", async () => {
    const n = await fx.liveNumber({ account: fx.sub });
    const m = await send(fx.actor('live', fx.sub), { to: TO, from: n.phoneNumber, body: 'hi' });
    await fx.advance(1_000);
    expect((await fx.events(fx.sub, 'message.status')).map((e) => e.body.messageId)).toEqual([m.id, m.id]);
    expect(await fx.events(fx.agency, 'message.status')).toEqual([]);
    expect((await fx.charges(fx.sub)).map((c) => c.category)).toContain('sms');
    expect(await fx.charges(fx.agency)).toEqual([]);
  });
});

describe('receiveInbound', () => {
  it('records a received message on the number and emits message.received', async () => {
    const n = await fx.buyNumber();
    const m = await fx.deps.uow.write((tx) => receiveInbound(tx, fx.actor(), InboundMessageBody.parse({ from: TO_2, to: n.phoneNumber, body: 'Reply from a consumer' })));
    expect(await stored(m.id)).toMatchObject({
      direction: 'inbound',
      status: 'received',
      from: TO_2,
      to: n.phoneNumber,
      counterparty: TO_2,
      numberId: n.id,
      channel: 'sms',
      segments: 1,
      test: false,
    });
    expect(m.providerMessageId).toMatch(/^SM/);
    const events = await fx.events(fx.agency, 'message.received');
    expect(events).toHaveLength(1);
    expect(events[0]!.body).toMatchObject({
      type: 'message.received',
      messageId: m.id,
      from: TO_2,
      to: n.phoneNumber,
      body: 'Reply from a consumer',
      receivedAt: new Date(fx.clock.nowMs()).toISOString(),
      providerMessageId: m.providerMessageId,
    });
    // Inbound is not billed and not reported as a status.
    expect(await fx.events(fx.agency, 'message.status')).toEqual([]);
    expect((await fx.charges(fx.agency)).map((c) => c.category)).not.toContain('sms');
  });

  it('only to a number the account owns and has not released', async () => {
    const theirs = await fx.buyNumber({ account: fx.sub });
    const err = await serviceErrorOf(async () => await fx.deps.uow.write((tx) => receiveInbound(tx, fx.actor(), InboundMessageBody.parse({ from: TO, to: theirs.phoneNumber, body: 'hi' }))));
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'to']]);

    const mine = await fx.buyNumber();
    (await fx.deps.uow.write(async (tx) => await releaseNumber(tx, fx.actor(), mine.id)));
    const released = await serviceErrorOf(async () => await fx.deps.uow.write((tx) => receiveInbound(tx, fx.actor(), InboundMessageBody.parse({ from: TO, to: mine.phoneNumber, body: 'hi' }))));
    expect(released.code).toBe('validation_error');
    expect(await fx.events(fx.agency, 'message.received')).toEqual([]);
  });

  it('inbound media needs the mms capability (named on to)', async () => {
    const n = await fx.buyNumber({ want: (c) => c.sms && !c.mms });
    const err = await serviceErrorOf(async () =>
      await fx.deps.uow.write((tx) => receiveInbound(tx, fx.actor(), InboundMessageBody.parse({ from: TO, to: n.phoneNumber, mediaUrls: ['https://cdn.example.com/a.png'] }))),
    );
    expect(err.code).toBe('channel_unsupported');
    expect(detailPaths(err)).toEqual([['body', 'to']]);
  });
});

describe('getMessage', () => {
  it("finds the account's own message and nobody else's", async () => {
    const m = await send(fx.actor('test'), { to: TO, from: TEST_SENDER, body: 'hi' });
    expect((await fx.deps.uow.write((tx) => getMessage(tx, fx.actor(), m.id))).id).toBe(m.id);
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getMessage(tx, fx.actor('live', fx.stranger), m.id)))).code).toBe('not_found');
    // The agency's own message is not its sub-account's either, nor the other way round.
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getMessage(tx, fx.actor('live', fx.sub), m.id)))).code).toBe('not_found');
    const subMessage = await send(fx.actor('test', fx.sub), { to: TO, from: TEST_SENDER, body: 'hi' });
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getMessage(tx, fx.actor(), subMessage.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getMessage(tx, fx.actor(), 'msg_doesnotexist')))).code).toBe('not_found');
  });
});
