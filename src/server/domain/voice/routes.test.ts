import { describe, expect, it } from 'vitest';
import { freshFixtureEachTest, detailPaths, serviceErrorOf, type DomainFixture } from '../../../../test/helpers/domain-fixture.js';
import { PutRouteBody, type PutRouteInput } from '../../../api/schemas/routes.js';
import { releaseNumber } from '../numbers.js';
import { readMedia } from '../media.js';
import { getRoute, putRoute, routeSummaries, routeSummary, routeTag, uploadGreeting } from './routes.js';
import { deleteDevice, registerDevice } from './devices.js';

// The routes domain on an in-memory database (spec: Call route, Numbers; contract §5): the rules
// across fields, wholesale replace, If-Match, the greeting's media, the number's summary.

let f: DomainFixture;
freshFixtureEachTest((fx) => (f = fx));

const PSTN = '+14155550199';
const body = (input: PutRouteInput) => PutRouteBody.parse(input);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(16)]);

describe('putRoute', () => {
  it('mirrors the primary, numbers priorities by position and keeps the route id across PUTs', async () => {
    const n = await f.buyNumber();
    const first = (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinationType: 'pstn', destination: PSTN, ringTimeoutSecs: 60 }))));
    const r1 = first.record.route!;
    expect(r1).toMatchObject({ destinationType: 'pstn', destination: PSTN, ringTimeoutSecs: 60, destinations: [{ priority: 0, ringTimeoutSecs: 60, stage: 0, enabled: true, label: null }] });
    const second = (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.phoneNumber, body({ destinations: [{ destinationType: 'sip', destination: 'sip:a@b.example.com' }, { destinationType: 'pstn', destination: PSTN }] }))));
    const r2 = second.record.route!;
    expect(r2.id).toBe(r1.id);
    expect(r2.destinations.map((d) => d.priority)).toEqual([0, 1]);
    expect([r2.destinationType, r2.destination, r2.ringTimeoutSecs]).toEqual(['sip', 'sip:a@b.example.com', 25]);
    expect(second.record.version).toBe(first.record.version + 1);
  });

  it('with destinations: [] reads back null type and destination and the default ring timeout', async () => {
    const n = await f.buyNumber();
    const r = (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [], destinationType: 'pstn', destination: PSTN, ringTimeoutSecs: 90 })))).record.route!;
    expect([r.destinations, r.destinationType, r.destination, r.ringTimeoutSecs]).toEqual([[], null, null, 25]);
  });

  it('refuses rules across fields with every path at once, changing nothing', async () => {
    const n = await f.buyNumber();
    const saved = (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinationType: 'pstn', destination: PSTN }))));
    const err = await serviceErrorOf(async () =>
      (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({
        destinations: [
          { destinationType: 'pstn', destination: 'sip:x@y.example.com' },
          { destinationType: 'sip', destination: PSTN },
          { destinationType: 'webrtc', destination: 'dev_12345' },
        ],
        ivr: {
          enabled: true,
          greeting: { text: 'Hi' },
          keys: [
            { digit: '1', action: { type: 'repeat' } },
            { digit: '1', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: 'abc' }] } },
          ],
          fallback: { type: 'ring', destinations: [{ destinationType: 'webrtc', destination: 'dev_x1' }] },
        },
      })))),
    );
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([
      ['body', 'destinations', 0, 'destination'],
      ['body', 'destinations', 1, 'destination'],
      ['body', 'destinations', 2, 'destination'],
      ['body', 'ivr', 'keys', 1, 'digit'],
      ['body', 'ivr', 'keys', 1, 'action', 'destinations', 0, 'destination'],
      ['body', 'ivr', 'fallback', 'destinations', 0, 'destination'],
    ]);
    expect((await f.deps.uow.write((tx) => getRoute(tx, f.actor(), n.id))).record).toEqual(saved.record);
  });

  it("accepts a webrtc destination that is a device of the account, and refuses a missing or another account's one", async () => {
    const n = await f.buyNumber();
    const mine = (await f.deps.uow.write(async (tx) => await registerDevice(tx, f.actor(), { userId: 'u1', label: 'desk' }))).device;
    const theirs = (await f.deps.uow.write(async (tx) => await registerDevice(tx, f.actor('live', f.stranger), { userId: 'u1', label: 'desk' }))).device;
    const saved = (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [{ destinationType: 'webrtc', destination: mine.id }] })))).record.route!;
    expect(saved.destinations.map((d) => [d.destinationType, d.destination])).toEqual([['webrtc', mine.id]]);
    const err = await serviceErrorOf(async () =>
      (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinationType: 'webrtc', destination: theirs.id })))),
    );
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'destination']]);
    (await f.deps.uow.write(async (tx) => await deleteDevice(tx, f.actor(), mine.id)));
    const gone = await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [{ destinationType: 'webrtc', destination: mine.id }] })))));
    expect(detailPaths(gone)).toEqual([['body', 'destinations', 0, 'destination']]);
    expect((await f.deps.uow.write((tx) => getRoute(tx, f.actor(), n.id))).record.route).toEqual(saved);
  });

  it('needs one form: destinations, or destinationType with destination', async () => {
    const n = await f.buyNumber();
    expect(detailPaths(await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({}))))))).toEqual([['body', 'destinations']]);
    expect(detailPaths(await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinationType: 'sip' }))))))).toEqual([['body', 'destination']]);
    expect(detailPaths(await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destination: PSTN }))))))).toEqual([['body', 'destinationType']]);
    // The array wins: a legacy destination that would not fit its type is ignored.
    expect((await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinationType: 'pstn', destination: 'not-a-number', destinations: [] })))).record.route!.destinations).toEqual([]);
  });

  it('honours If-Match: the current tag passes, a stale one is a conflict that changes nothing, * needs a route', async () => {
    const n = await f.buyNumber();
    const empty = await f.deps.uow.write((tx) => getRoute(tx, f.actor(), n.id));
    expect(empty.record.version).toBe(0);
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [] }), { ifMatch: '*' }))))).code).toBe('conflict');
    const tag0 = routeTag(n.id, 0);
    const saved = (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [] }), { ifMatch: tag0 })));
    expect(saved.record.version).toBe(1);
    const stale = await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinationType: 'pstn', destination: PSTN }), { ifMatch: tag0 }))));
    expect(stale.code).toBe('conflict');
    expect((await f.deps.uow.write((tx) => getRoute(tx, f.actor(), n.id))).record).toEqual(saved.record);
    // Strong comparison: the weak form of the current tag does not match; a list holding it does.
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [] }), { ifMatch: `W/${routeTag(n.id, 1)}` }))))).code).toBe('conflict');
    expect((await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [] }), { ifMatch: `"x", ${routeTag(n.id, 1)}` }))).record.version).toBe(2);
  });

  it("is not_found for another account's number and a conflict once released", async () => {
    const mine = await f.buyNumber();
    const theirs = await f.buyNumber({ account: f.stranger });
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => getRoute(tx, f.actor(), theirs.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), theirs.id, body({ destinations: [] })))))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => uploadGreeting(tx, f.actor(), theirs.id, { bytes: MP3, contentType: 'audio/mpeg' })))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor('live', f.sub), mine.id, body({ destinations: [] })))))).code).toBe('not_found');
    (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), mine.id, body({ destinations: [] }))));
    (await f.deps.uow.write(async (tx) => await releaseNumber(tx, f.actor(), mine.id)));
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => getRoute(tx, f.actor(), mine.id)))).code).toBe('conflict');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), mine.id, body({ destinations: [] })))))).code).toBe('conflict');
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => uploadGreeting(tx, f.actor(), mine.id, { bytes: MP3, contentType: 'audio/mpeg' })))).code).toBe('conflict');
    expect((await f.deps.uow.read(async (tx) => routeSummaries(tx, [(await tx.numbers.get(f.agency.id, mine.id))!]))).size).toBe(0);
  });
});

describe('uploadGreeting', () => {
  it('stores the audio under a new name each time, deletes the one it replaces, and raises the version', async () => {
    const n = await f.buyNumber();
    const a = await f.deps.uow.write((tx) => uploadGreeting(tx, f.actor(), n.id, { bytes: MP3, contentType: 'audio/mpeg' }));
    expect(a.media).toMatch(/^greeting_[A-Za-z0-9]{24}\.mp3$/);
    expect(await readMedia(f.deps, a.media)).toEqual({ bytes: MP3, contentType: 'audio/mpeg' });
    expect(a.record).toMatchObject({ route: null, greetingMedia: a.media, version: 1 });
    const b = await f.deps.uow.write((tx) => uploadGreeting(tx, f.actor(), n.id, { bytes: MP3, contentType: 'audio/mpeg' }));
    expect(b.media).not.toBe(a.media);
    expect((await serviceErrorOf(async () => await readMedia(f.deps, a.media))).code).toBe('not_found');
    expect(b.record.version).toBe(2);
    // A route PUT keeps the uploaded greeting.
    expect((await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body({ destinations: [] })))).record.greetingMedia).toBe(b.media);
  });

  it('refuses other types, empty or mislabelled audio, storing nothing', async () => {
    const n = await f.buyNumber();
    const paths = async (bytes: Buffer, contentType: string | undefined) => detailPaths(await serviceErrorOf(async () => await f.deps.uow.write((tx) => uploadGreeting(tx, f.actor(), n.id, { bytes, contentType }))));
    expect(await paths(MP3, 'audio/flac')).toEqual([['headers', 'content-type']]);
    expect(await paths(MP3, undefined)).toEqual([['headers', 'content-type']]);
    expect(await paths(Buffer.alloc(0), 'audio/mpeg')).toEqual([['body']]);
    expect(await paths(MP3, 'audio/wav')).toEqual([['body']]);
    expect(await paths(Buffer.from('OggS-but-labelled-mpeg'), 'audio/mpeg')).toEqual([['body']]);
    expect((await f.deps.uow.write((tx) => getRoute(tx, f.actor(), n.id))).record.version).toBe(0);
  });
});

describe('routeSummary', () => {
  const route = async (input: PutRouteInput) => {
    const n = await f.buyNumber();
    return (await f.deps.uow.write(async (tx) => await putRoute(tx, f.actor(), n.id, body(input)))).record.route!;
  };
  it('picks the kind in order: disabled, webhook, ivr, ring_group, forward, voicemail, else disabled', async () => {
    const ivr = { enabled: true, greeting: { text: 'Hi' }, keys: [{ digit: '1', action: { type: 'repeat' as const } }, { digit: '2', action: { type: 'voicemail' as const } }] };
    const two = [{ destinationType: 'pstn' as const, destination: PSTN }, { destinationType: 'pstn' as const, destination: '+14155550100', enabled: false }];
    expect(routeSummary(await route({ destinations: two, enabled: false, ivr }))).toEqual({ kind: 'disabled', label: 'Disabled' });
    expect(routeSummary(await route({ destinations: two, ivr, decisionWebhook: { enabled: true, url: 'https://d.example.com:8443/x' } }))).toEqual({ kind: 'webhook', label: 'Decision webhook d.example.com:8443' });
    expect(routeSummary(await route({ destinations: two, ivr, decisionWebhook: { enabled: false, url: 'https://d.example.com' } }))).toEqual({ kind: 'ivr', label: 'IVR menu, 2 keys' });
    expect(routeSummary(await route({ destinations: two, ivr: { ...ivr, enabled: false } }))).toEqual({ kind: 'forward', label: `Forward to ${PSTN}` });
    expect(routeSummary(await route({ destinations: [two[0]!, { ...two[1]!, enabled: true }], ringMode: 'staged' }))).toEqual({ kind: 'ring_group', label: 'Ring 2 destinations, staged' });
    expect(routeSummary(await route({ destinations: [{ ...two[1]! }], noAnswerAction: { type: 'voicemail' } }))).toEqual({ kind: 'voicemail', label: 'Voicemail' });
    expect(routeSummary(await route({ destinations: [], noAnswerAction: { type: 'forward', to: PSTN }, voicemailEnabled: true }))).toEqual({ kind: 'forward', label: `Forward to ${PSTN}` });
    expect(routeSummary(await route({ destinations: [] }))).toEqual({ kind: 'disabled', label: 'No destinations' });
  });
});
