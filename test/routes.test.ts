import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, enc, expectError } from './messages-fixtures.js';
import { ApiClient } from '../src/api/client/client.js';
import { ApiError } from '../src/api/client/errors.js';
import { getRoute, putRoute, uploadGreeting } from '../src/api/resources/routes.js';
import { GREETING_AUDIO_MAX_BYTES, ROUTE_FEATURES } from '../src/api/values/routes.js';

// spec: Call route, Destination entry, IVR object, Route response wrapper, Numbers (route and
// voicemail greeting), Limits; contract §5 — over HTTP on loopback.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const PSTN = '+14155550199';
const routeOf = (id: string) => `/v1/numbers/${id}/route`;
const put = (id: string, body: unknown, headers?: Record<string, string>) => svc.call('PUT', routeOf(id), { body, headers });
const get = (id: string, headers?: Record<string, string>) => svc.call('GET', routeOf(id), { headers });

/** Raw audio bodies whose first bytes look like each type. */
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 1)]);
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(64, 2)]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(64, 3)]);
const upload = (id: string, bytes: Buffer | string, contentType?: string, key?: string | null) =>
  svc.call('PUT', `/v1/numbers/${id}/voicemail-greeting`, { rawBody: bytes, headers: contentType ? { 'content-type': contentType } : {}, key });

/** A GET without any credentials, answering the bytes. */
async function fetchPublic(url: string): Promise<{ status: number; type: string | undefined; bytes: Buffer }> {
  const res = await request(url);
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, type: res.headers['content-type'] as string | undefined, bytes };
}

describe('GET and PUT /v1/numbers/{id}/route', () => {
  it('has no route before the first PUT, with the features and an ETag', async () => {
    const n = await buy(svc, { areaCode: '212' });
    const res = await get(n.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ route: null, features: ['ivr', 'decisionWebhook', 'recordingNotice'] });
    expect(res.body.features).toEqual([...ROUTE_FEATURES]);
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.route).toBeNull();
  });

  it('saves the legacy single form with every default (first PUT is 200), by id or by E.164', async () => {
    const n = await buy(svc, { areaCode: '212' });
    const res = await put(enc(n.phoneNumber), { destinationType: 'pstn', destination: PSTN });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['route']);
    const route = res.body.route;
    expect(route).toEqual({
      id: expect.stringMatching(/^rte_/),
      destinationType: 'pstn',
      destination: PSTN,
      ringTimeoutSecs: 25,
      enabled: true,
      ringMode: 'simultaneous',
      callerIdMode: 'caller',
      destinations: [
        { id: expect.stringMatching(/^dst_/), destinationType: 'pstn', destination: PSTN, label: null, priority: 0, stage: 0, ringTimeoutSecs: 25, enabled: true },
      ],
      recordCalls: false,
      liveTranscription: false,
      voicemailEnabled: false,
      voicemailGreeting: null,
      voicemailGreetingAudioUrl: null,
      noAnswerAction: null,
      outboundRingTimeoutSecs: null,
      recordingNotice: null,
      ivr: null,
      decisionWebhook: null,
    });
    const read = await get(n.id);
    expect(read.body).toEqual({ route, features: [...ROUTE_FEATURES] });
    expect(read.headers.etag).toBe(res.headers.etag);
    // The legacy ringTimeoutSecs is the destination's.
    const timed = await put(n.id, { destinationType: 'sip', destination: 'sip:desk@pbx.example.com', ringTimeoutSecs: 40 });
    expect(timed.body.route).toMatchObject({ id: route.id, destinationType: 'sip', ringTimeoutSecs: 40, destinations: [{ ringTimeoutSecs: 40, priority: 0 }] });
  });

  it('takes destinations over the legacy fields, by position, mirroring only the primary', async () => {
    const n = await buy(svc, { areaCode: '212' });
    const res = await put(n.id, {
      destinationType: 'pstn',
      destination: '+14155550000',
      ringTimeoutSecs: 90,
      ringMode: 'staged',
      destinations: [
        { destinationType: 'sip', destination: 'sips:front@pbx.example.com', label: 'Front desk', ringTimeoutSecs: 15 },
        { destinationType: 'pstn', destination: PSTN, stage: 1, enabled: false },
        { destinationType: 'pstn', destination: '+14155550198', stage: 4, ringTimeoutSecs: 120 },
      ],
    });
    expect(res.status).toBe(200);
    const r = res.body.route;
    expect(r).toMatchObject({ destinationType: 'sip', destination: 'sips:front@pbx.example.com', ringTimeoutSecs: 15, ringMode: 'staged' });
    expect(r.destinations.map((d: any) => [d.priority, d.destination, d.stage, d.ringTimeoutSecs, d.enabled, d.label])).toEqual([
      [0, 'sips:front@pbx.example.com', 0, 15, true, 'Front desk'],
      [1, PSTN, 1, 25, false, null],
      [2, '+14155550198', 4, 120, true, null],
    ]);
    expect(new Set(r.destinations.map((d: any) => d.id)).size).toBe(3);
  });

  it('keeps only the settings with an explicit empty destinations array', async () => {
    const n = await buy(svc, { areaCode: '212' });
    const res = await put(n.id, { destinations: [], voicemailEnabled: true, voicemailGreeting: 'Leave a message.', destinationType: 'pstn', destination: PSTN });
    expect(res.status).toBe(200);
    expect(res.body.route).toMatchObject({ destinations: [], destinationType: null, destination: null, ringTimeoutSecs: 25, voicemailEnabled: true, voicemailGreeting: 'Leave a message.' });
    expect((await get(n.id)).body.route.destinations).toEqual([]);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.route).toEqual({ kind: 'voicemail', label: 'Voicemail' });
  });

  it('replaces wholesale: omitted fields go back to their defaults, the route id stays', async () => {
    const n = await buy(svc, { areaCode: '212' });
    const full = await put(n.id, {
      destinations: [{ destinationType: 'pstn', destination: PSTN }],
      enabled: false,
      ringMode: 'sequential',
      callerIdMode: 'business',
      recordCalls: true,
      liveTranscription: true,
      voicemailEnabled: true,
      voicemailGreeting: 'Hi',
      noAnswerAction: { type: 'forward', to: '+14155550111' },
      outboundRingTimeoutSecs: 30,
      recordingNotice: { text: 'This call is recorded.' },
      ivr: {
        enabled: true,
        greeting: { audioUrl: 'https://cdn.example.com/menu.mp3' },
        keys: [
          { digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550112' }] } },
          { digit: '*', action: { type: 'repeat' } },
          { digit: '#', action: { type: 'voicemail' } },
        ],
      },
      decisionWebhook: { enabled: true, url: 'https://hooks.example.com/decide' },
    });
    expect(full.status).toBe(200);
    const r = full.body.route;
    expect(r).toMatchObject({
      enabled: false,
      ringMode: 'sequential',
      callerIdMode: 'business',
      recordCalls: true,
      liveTranscription: true,
      noAnswerAction: { type: 'forward', to: '+14155550111' },
      outboundRingTimeoutSecs: 30,
      recordingNotice: { text: 'This call is recorded.', audioUrl: null },
      decisionWebhook: { enabled: true, url: 'https://hooks.example.com/decide', timeoutMs: 800 },
    });
    expect(r.ivr).toEqual({
      enabled: true,
      greeting: { text: null, audioUrl: 'https://cdn.example.com/menu.mp3' },
      digitTimeoutSecs: 5,
      invalidRetries: 1,
      keys: [
        {
          digit: '1',
          label: 'Sales',
          action: {
            type: 'ring',
            ringMode: 'simultaneous',
            destinations: [{ id: expect.stringMatching(/^dst_/), destinationType: 'pstn', destination: '+14155550112', label: null, priority: 0, stage: 0, ringTimeoutSecs: 25, enabled: true }],
          },
        },
        { digit: '*', label: null, action: { type: 'repeat' } },
        { digit: '#', label: null, action: { type: 'voicemail' } },
      ],
      fallback: { type: 'voicemail' },
    });
    const bare = await put(n.id, { destinations: [{ destinationType: 'pstn', destination: PSTN }] });
    expect(bare.body.route).toMatchObject({
      id: r.id,
      enabled: true,
      ringMode: 'simultaneous',
      callerIdMode: 'caller',
      recordCalls: false,
      liveTranscription: false,
      voicemailEnabled: false,
      voicemailGreeting: null,
      noAnswerAction: null,
      outboundRingTimeoutSecs: null,
      recordingNotice: null,
      ivr: null,
      decisionWebhook: null,
    });
    expect(bare.body.route.destinations[0].id).not.toBe(r.destinations[0].id);
  });

  describe('validation: each failure names its field and saves nothing', () => {
    const dest = (o: Record<string, unknown> = {}) => ({ destinationType: 'pstn', destination: PSTN, ...o });
    const ivr = (o: Record<string, unknown> = {}) => ({ enabled: true, greeting: { text: 'Press 1' }, keys: [{ digit: '1', action: { type: 'voicemail' } }], ...o });
    const ring = (destinations: unknown[]) => ({ type: 'ring', destinations });
    const cases: Array<[string, Record<string, unknown>, Array<string | number>]> = [
      ['neither form', {}, ['body', 'destinations']],
      ['destinationType without destination', { destinationType: 'pstn' }, ['body', 'destination']],
      ['destination without destinationType', { destination: PSTN }, ['body', 'destinationType']],
      ['unknown destinationType', { destinationType: 'fax', destination: PSTN }, ['body', 'destinationType']],
      ['legacy destination under 3', { destinationType: 'sip', destination: 'si' }, ['body', 'destination']],
      ['legacy pstn not E.164', { destinationType: 'pstn', destination: '4155550199' }, ['body', 'destination']],
      ['legacy ringTimeoutSecs 4', { ...dest(), ringTimeoutSecs: 4 }, ['body', 'ringTimeoutSecs']],
      ['legacy ringTimeoutSecs 121', { ...dest(), ringTimeoutSecs: 121 }, ['body', 'ringTimeoutSecs']],
      ['legacy ringTimeoutSecs not an integer', { ...dest(), ringTimeoutSecs: 25.5 }, ['body', 'ringTimeoutSecs']],
      ['11 destinations', { destinations: Array.from({ length: 11 }, () => dest()) }, ['body', 'destinations']],
      ['destination type missing', { destinations: [{ destination: PSTN }] }, ['body', 'destinations', 0, 'destinationType']],
      ['destination missing', { destinations: [{ destinationType: 'pstn' }] }, ['body', 'destinations', 0, 'destination']],
      ['destination over 200', { destinations: [dest({ destinationType: 'sip', destination: `sip:${'a'.repeat(197)}` })] }, ['body', 'destinations', 0, 'destination']],
      ['pstn destination not E.164', { destinations: [dest(), dest({ destination: 'call me' })] }, ['body', 'destinations', 1, 'destination']],
      ['sip destination not a sip: URI', { destinations: [dest({ destinationType: 'sip', destination: 'pbx.example.com' })] }, ['body', 'destinations', 0, 'destination']],
      ['webrtc destination that is no device of the account', { destinations: [dest({ destinationType: 'webrtc', destination: 'dev_abc123' })] }, ['body', 'destinations', 0, 'destination']],
      ['stage 5', { destinations: [dest({ stage: 5 })] }, ['body', 'destinations', 0, 'stage']],
      ['stage -1', { destinations: [dest({ stage: -1 })] }, ['body', 'destinations', 0, 'stage']],
      ['destination ringTimeoutSecs 121', { destinations: [dest({ ringTimeoutSecs: 121 })] }, ['body', 'destinations', 0, 'ringTimeoutSecs']],
      ['destination label empty', { destinations: [dest({ label: '' })] }, ['body', 'destinations', 0, 'label']],
      ['destination label over 80', { destinations: [dest({ label: 'x'.repeat(81) })] }, ['body', 'destinations', 0, 'label']],
      ['destination enabled not boolean', { destinations: [dest({ enabled: 'yes' })] }, ['body', 'destinations', 0, 'enabled']],
      ['destination priority (position is priority)', { destinations: [dest({ priority: 0 })] }, ['body', 'destinations', 0, 'priority']],
      ['unknown field', { ...dest(), colour: 'red' }, ['body', 'colour']],
      ['ringMode', { ...dest(), ringMode: 'random' }, ['body', 'ringMode']],
      ['callerIdMode', { ...dest(), callerIdMode: 'anonymous' }, ['body', 'callerIdMode']],
      ['recordCalls', { ...dest(), recordCalls: 1 }, ['body', 'recordCalls']],
      ['voicemailGreeting empty', { ...dest(), voicemailGreeting: '' }, ['body', 'voicemailGreeting']],
      ['voicemailGreeting over 500', { ...dest(), voicemailGreeting: 'x'.repeat(501) }, ['body', 'voicemailGreeting']],
      ['voicemailGreetingAudioUrl is not a body field', { ...dest(), voicemailGreetingAudioUrl: 'https://x.example.com/a.mp3' }, ['body', 'voicemailGreetingAudioUrl']],
      ['noAnswerAction type', { ...dest(), noAnswerAction: { type: 'hangup' } }, ['body', 'noAnswerAction', 'type']],
      ['noAnswerAction forward without to', { ...dest(), noAnswerAction: { type: 'forward' } }, ['body', 'noAnswerAction', 'to']],
      ['noAnswerAction forward to not E.164', { ...dest(), noAnswerAction: { type: 'forward', to: '555' } }, ['body', 'noAnswerAction', 'to']],
      ['outboundRingTimeoutSecs 4', { ...dest(), outboundRingTimeoutSecs: 4 }, ['body', 'outboundRingTimeoutSecs']],
      ['outboundRingTimeoutSecs 121', { ...dest(), outboundRingTimeoutSecs: 121 }, ['body', 'outboundRingTimeoutSecs']],
      ['recordingNotice empty object', { ...dest(), recordingNotice: {} }, ['body', 'recordingNotice']],
      ['recordingNotice text over 500', { ...dest(), recordingNotice: { text: 'x'.repeat(501) } }, ['body', 'recordingNotice', 'text']],
      ['recordingNotice audioUrl not a URL', { ...dest(), recordingNotice: { audioUrl: 'notice.mp3' } }, ['body', 'recordingNotice', 'audioUrl']],
      ['recordingNotice audioUrl over 1000', { ...dest(), recordingNotice: { audioUrl: `https://x.example.com/${'a'.repeat(1000)}` } }, ['body', 'recordingNotice', 'audioUrl']],
      ['decisionWebhook without url', { ...dest(), decisionWebhook: { enabled: true } }, ['body', 'decisionWebhook', 'url']],
      ['decisionWebhook without enabled', { ...dest(), decisionWebhook: { url: 'https://x.example.com' } }, ['body', 'decisionWebhook', 'enabled']],
      ['decisionWebhook url not http(s)', { ...dest(), decisionWebhook: { enabled: true, url: 'ftp://x.example.com' } }, ['body', 'decisionWebhook', 'url']],
      ['decisionWebhook timeoutMs 99', { ...dest(), decisionWebhook: { enabled: true, url: 'https://x.example.com', timeoutMs: 99 } }, ['body', 'decisionWebhook', 'timeoutMs']],
      ['decisionWebhook timeoutMs 5001', { ...dest(), decisionWebhook: { enabled: true, url: 'https://x.example.com', timeoutMs: 5001 } }, ['body', 'decisionWebhook', 'timeoutMs']],
      ['ivr without enabled', { ...dest(), ivr: { greeting: { text: 'Hi' }, keys: [{ digit: '1', action: { type: 'repeat' } }] } }, ['body', 'ivr', 'enabled']],
      ['ivr without greeting', { ...dest(), ivr: { enabled: true, keys: [{ digit: '1', action: { type: 'repeat' } }] } }, ['body', 'ivr', 'greeting']],
      ['ivr greeting empty object', { ...dest(), ivr: ivr({ greeting: {} }) }, ['body', 'ivr', 'greeting']],
      ['ivr greeting text over 1000', { ...dest(), ivr: ivr({ greeting: { text: 'x'.repeat(1001) } }) }, ['body', 'ivr', 'greeting', 'text']],
      ['ivr without keys', { ...dest(), ivr: { enabled: true, greeting: { text: 'Hi' } } }, ['body', 'ivr', 'keys']],
      ['ivr with 0 keys', { ...dest(), ivr: ivr({ keys: [] }) }, ['body', 'ivr', 'keys']],
      ['ivr with 13 keys', { ...dest(), ivr: ivr({ keys: Array.from({ length: 13 }, (_, i) => ({ digit: String(i % 10), action: { type: 'repeat' } })) }) }, ['body', 'ivr', 'keys']],
      ['ivr digit "10"', { ...dest(), ivr: ivr({ keys: [{ digit: '10', action: { type: 'repeat' } }] }) }, ['body', 'ivr', 'keys', 0, 'digit']],
      ['ivr digit "a"', { ...dest(), ivr: ivr({ keys: [{ digit: 'a', action: { type: 'repeat' } }] }) }, ['body', 'ivr', 'keys', 0, 'digit']],
      ['ivr duplicate digit', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: { type: 'repeat' } }, { digit: '1', action: { type: 'voicemail' } }] }) }, ['body', 'ivr', 'keys', 1, 'digit']],
      ['ivr key label over 80', { ...dest(), ivr: ivr({ keys: [{ digit: '1', label: 'x'.repeat(81), action: { type: 'repeat' } }] }) }, ['body', 'ivr', 'keys', 0, 'label']],
      ['ivr key without action', { ...dest(), ivr: ivr({ keys: [{ digit: '1' }] }) }, ['body', 'ivr', 'keys', 0, 'action']],
      ['ivr action type', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: { type: 'dance' } }] }) }, ['body', 'ivr', 'keys', 0, 'action', 'type']],
      ['ivr ring with no destinations', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: ring([]) }] }) }, ['body', 'ivr', 'keys', 0, 'action', 'destinations']],
      ['ivr ring with 11 destinations', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: ring(Array.from({ length: 11 }, () => dest())) }] }) }, ['body', 'ivr', 'keys', 0, 'action', 'destinations']],
      ['ivr ring ringMode', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: { ...ring([dest()]), ringMode: 'loud' } }] }) }, ['body', 'ivr', 'keys', 0, 'action', 'ringMode']],
      ['ivr ring destination stage', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: ring([dest({ stage: 9 })]) }] }) }, ['body', 'ivr', 'keys', 0, 'action', 'destinations', 0, 'stage']],
      ['ivr ring destination form', { ...dest(), ivr: ivr({ keys: [{ digit: '1', action: ring([dest(), dest({ destination: 'nope' })]) }] }) }, ['body', 'ivr', 'keys', 0, 'action', 'destinations', 1, 'destination']],
      ['ivr fallback ring webrtc', { ...dest(), ivr: ivr({ fallback: ring([dest({ destinationType: 'webrtc', destination: 'dev_x' })]) }) }, ['body', 'ivr', 'fallback', 'destinations', 0, 'destination']],
      ['ivr digitTimeoutSecs 0', { ...dest(), ivr: ivr({ digitTimeoutSecs: 0 }) }, ['body', 'ivr', 'digitTimeoutSecs']],
      ['ivr digitTimeoutSecs 31', { ...dest(), ivr: ivr({ digitTimeoutSecs: 31 }) }, ['body', 'ivr', 'digitTimeoutSecs']],
      ['ivr invalidRetries -1', { ...dest(), ivr: ivr({ invalidRetries: -1 }) }, ['body', 'ivr', 'invalidRetries']],
      ['ivr invalidRetries 6', { ...dest(), ivr: ivr({ invalidRetries: 6 }) }, ['body', 'ivr', 'invalidRetries']],
    ];

    let n: any;
    let before: any;
    beforeAll(async () => {
      n = await buy(svc, { areaCode: '305' });
      before = await put(n.id, { destinationType: 'pstn', destination: PSTN, voicemailGreeting: 'Before' });
      expect(before.status).toBe(200);
    });

    it.each(cases)('%s', async (_name, body, path) => {
      expectError(await put(n.id, body), 400, 'validation_error', path);
      const after = await get(n.id);
      expect(after.body.route).toEqual(before.body.route);
      expect(after.headers.etag).toBe(before.headers.etag);
    });

    it('lists every failure of one body at once', async () => {
      const res = await put(n.id, { destinations: [dest({ stage: 7 }), dest({ destination: 'x1x' })], ivr: ivr({ keys: [{ digit: 'x', action: { type: 'repeat' } }] }) });
      expectError(res, 400, 'validation_error', ['body', 'destinations', 0, 'stage']);
      expectError(res, 400, 'validation_error', ['body', 'ivr', 'keys', 0, 'digit']);
      // Rules across fields run once the fields themselves are valid, and list all their failures too.
      const cross = await put(n.id, { destinations: [dest({ destination: 'x1x' }), dest({ destinationType: 'sip' })] });
      expect(cross.body.error.details.map((d: { path: unknown }) => d.path)).toEqual([
        ['body', 'destinations', 0, 'destination'],
        ['body', 'destinations', 1, 'destination'],
      ]);
    });

    it('accepts every bound at its edge', async () => {
      const edge = await put(n.id, {
        destinations: Array.from({ length: 10 }, (_, i) => dest({ stage: i % 5, ringTimeoutSecs: i % 2 ? 5 : 120, label: 'x'.repeat(80) })),
        voicemailGreeting: 'x'.repeat(500),
        outboundRingTimeoutSecs: 5,
        recordingNotice: { text: 'x'.repeat(500), audioUrl: `https://x.example.com/${'a'.repeat(1000 - 22)}` },
        ivr: ivr({ digitTimeoutSecs: 30, invalidRetries: 5, greeting: { text: 'x'.repeat(1000) }, keys: '0123456789*#'.split('').map((digit) => ({ digit, label: 'x'.repeat(80), action: ring(Array.from({ length: 10 }, () => dest())) })) }),
        decisionWebhook: { enabled: false, url: 'http://127.0.0.1:9/decide', timeoutMs: 5000 },
      });
      expect(edge.status, JSON.stringify(edge.body)).toBe(200);
      const low = await put(n.id, { ...dest(), ringTimeoutSecs: 5, ivr: ivr({ digitTimeoutSecs: 1, invalidRetries: 0 }), decisionWebhook: { enabled: true, url: 'https://x.example.com', timeoutMs: 100 } });
      expect(low.status, JSON.stringify(low.body)).toBe(200);
      // Restore the route the other cases compare against.
      before = await put(n.id, { destinationType: 'pstn', destination: PSTN, voicemailGreeting: 'Before' });
    });
  });

  describe('ETag and If-Match', () => {
    it('refuses a PUT whose If-Match no longer matches with 409, changing nothing', async () => {
      const n = await buy(svc, { areaCode: '617' });
      const first = await get(n.id);
      const created = await put(n.id, { destinationType: 'pstn', destination: PSTN }, { 'if-match': first.headers.etag as string });
      expect(created.status).toBe(200);
      const tag = created.headers.etag as string;
      expect(tag).not.toBe(first.headers.etag);
      expect((await get(n.id)).headers.etag).toBe(tag);

      // A stale tag (from before the first PUT) → 409, and the route is as it was.
      const stale = await put(n.id, { destinationType: 'pstn', destination: '+14155550177' }, { 'if-match': first.headers.etag as string });
      expectError(stale, 409, 'conflict');
      const unchanged = await get(n.id);
      expect(unchanged.body.route).toEqual(created.body.route);
      expect(unchanged.headers.etag).toBe(tag);

      // A weak tag never matches; a list containing the current tag does; `*` needs a route.
      expectError(await put(n.id, { destinationType: 'pstn', destination: PSTN }, { 'if-match': `W/${tag}` }), 409, 'conflict');
      const listed = await put(n.id, { destinationType: 'pstn', destination: '+14155550177' }, { 'if-match': `"nope", ${tag}` });
      expect(listed.status).toBe(200);
      expect(listed.body.route.destination).toBe('+14155550177');
      expect((await put(n.id, { destinationType: 'pstn', destination: PSTN }, { 'if-match': '*' })).status).toBe(200);
      const fresh = await buy(svc, { areaCode: '617' });
      expectError(await put(fresh.id, { destinationType: 'pstn', destination: PSTN }, { 'if-match': '*' }), 409, 'conflict');
      expect((await get(fresh.id)).body.route).toBeNull();

      // Without If-Match a PUT replaces as the spec says.
      expect((await put(n.id, { destinationType: 'pstn', destination: '+14155550166' })).status).toBe(200);
    });

    it('reports a bad body before a stale tag', async () => {
      const n = await buy(svc, { areaCode: '617' });
      expectError(await put(n.id, { destinationType: 'pstn', destination: PSTN, stage: 1 }, { 'if-match': '"stale"' }), 400, 'validation_error', ['body', 'stage']);
    });
  });

  it("fills the number's route summary, in reads and lists", async () => {
    const n = await buy(svc, { areaCode: '718' });
    const summary = async () => (await svc.call('GET', `/v1/numbers/${n.id}`)).body.route;
    const cases: Array<[Record<string, unknown>, { kind: string; label: string }]> = [
      [{ destinationType: 'pstn', destination: PSTN }, { kind: 'forward', label: `Forward to ${PSTN}` }],
      [{ destinations: [{ destinationType: 'pstn', destination: PSTN, label: 'Cell' }] }, { kind: 'forward', label: 'Forward to Cell' }],
      [
        { ringMode: 'sequential', destinations: [{ destinationType: 'pstn', destination: PSTN }, { destinationType: 'sip', destination: 'sip:a@b.example.com' }] },
        { kind: 'ring_group', label: 'Ring 2 destinations, sequential' },
      ],
      [{ destinations: [], ivr: { enabled: true, greeting: { text: 'Hi' }, keys: [{ digit: '1', action: { type: 'voicemail' } }] } }, { kind: 'ivr', label: 'IVR menu, 1 key' }],
      [{ destinations: [], decisionWebhook: { enabled: true, url: 'https://decide.example.com/x' } }, { kind: 'webhook', label: 'Decision webhook decide.example.com' }],
      [{ destinations: [], voicemailEnabled: true }, { kind: 'voicemail', label: 'Voicemail' }],
      [{ destinations: [], noAnswerAction: { type: 'forward', to: PSTN } }, { kind: 'forward', label: `Forward to ${PSTN}` }],
      [{ destinations: [] }, { kind: 'disabled', label: 'No destinations' }],
      [{ destinationType: 'pstn', destination: PSTN, enabled: false }, { kind: 'disabled', label: 'Disabled' }],
    ];
    for (const [body, expected] of cases) {
      expect((await put(n.id, body)).status).toBe(200);
      expect(await summary(), JSON.stringify(body)).toEqual(expected);
    }
    const listed = await svc.call('GET', '/v1/numbers?limit=100');
    expect(listed.body.data.find((x: { id: string }) => x.id === n.id).route).toEqual({ kind: 'disabled', label: 'Disabled' });
  });

  it("answers 404 for another account's number and changes nothing", async () => {
    const n = await buy(svc, { areaCode: '312' });
    expect((await put(n.id, { destinationType: 'pstn', destination: PSTN })).status).toBe(200);
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Route stranger' } });
    const headers = { 'service-subaccount': sub.body.id };
    expectError(await get(n.id, headers), 404, 'not_found');
    expectError(await get(enc(n.phoneNumber), headers), 404, 'not_found');
    expectError(await put(n.id, { destinationType: 'pstn', destination: '+14155550144' }, headers), 404, 'not_found');
    expectError(await svc.call('PUT', `/v1/numbers/${n.id}/voicemail-greeting`, { rawBody: MP3, headers: { ...headers, 'content-type': 'audio/mpeg' } }), 404, 'not_found');
    expectError(await get('num_missing'), 404, 'not_found');
    expect((await get(n.id)).body.route.destination).toBe(PSTN);
    expect((await get(n.id)).body.route.voicemailGreetingAudioUrl).toBeNull();
  });

  it('answers 409 for a released number, and its summary is null', async () => {
    const n = await buy(svc, { areaCode: '312' });
    expect((await put(n.id, { destinationType: 'pstn', destination: PSTN })).status).toBe(200);
    expect((await svc.call('POST', `/v1/numbers/${n.id}/release`)).status).toBe(200);
    expectError(await get(n.id), 409, 'conflict');
    expectError(await put(n.id, { destinationType: 'pstn', destination: PSTN }), 409, 'conflict');
    expectError(await upload(n.id, MP3, 'audio/mpeg'), 409, 'conflict');
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.route).toBeNull();
  });

  it('a webrtc destination must be a softphone device of the account (contract §5)', async () => {
    const n = await buy(svc, { areaCode: '415' });
    const device = (await svc.call('POST', '/v1/webrtc/devices', { body: { userId: 'front-desk', label: 'routes test' } })).body;
    expect(device.id).toMatch(/^dev_/);
    const webrtc = (id: string) => ({ destinationType: 'webrtc', destination: id });
    const saved = await put(n.id, { destinations: [webrtc(device.id), { destinationType: 'pstn', destination: PSTN }], ivr: { enabled: true, greeting: { text: 'Hi' }, keys: [{ digit: '1', action: { type: 'ring', destinations: [webrtc(device.id)] } }] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.route.destinations[0]).toMatchObject(webrtc(device.id));

    // Another account's device is not one of this account's.
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'routes-webrtc' } });
    const theirs = (await svc.call('POST', '/v1/webrtc/devices', { body: { userId: 'front-desk', label: 'routes test' }, headers: { 'service-subaccount': sub.body.id } })).body;
    expect(theirs.id).not.toBe(device.id);
    expectError(await put(n.id, { destinations: [webrtc(theirs.id)] }), 400, 'validation_error', ['body', 'destinations', 0, 'destination']);

    // Deleting a device a route names is allowed; the saved route stays as it was, and saving it
    // again is refused until the destination changes.
    expect((await svc.call('DELETE', `/v1/webrtc/devices/${device.id}`)).status).toBe(204);
    expect((await get(n.id)).body.route).toEqual(saved.body.route);
    const again = await put(n.id, { destinations: [webrtc(device.id)], ivr: { enabled: true, greeting: { text: 'Hi' }, keys: [{ digit: '1', action: { type: 'ring', destinations: [webrtc(device.id)] } }] } });
    expectError(again, 400, 'validation_error', ['body', 'destinations', 0, 'destination']);
    expectError(again, 400, 'validation_error', ['body', 'ivr', 'keys', 0, 'action', 'destinations', 0, 'destination']);
  });

  it('needs a key', async () => {
    const n = await buy(svc, { areaCode: '312' });
    expectError(await svc.call('GET', routeOf(n.id), { key: null }), 401, 'unauthorized');
    expectError(await svc.call('PUT', routeOf(n.id), { key: null, body: { destinations: [] } }), 401, 'unauthorized');
    expectError(await upload(n.id, MP3, 'audio/mpeg', null), 401, 'unauthorized');
  });
});

describe('PUT /v1/numbers/{id}/voicemail-greeting', () => {
  it('stores the recording, serves it without auth, and mints a new URL per upload', async () => {
    const n = await buy(svc, { areaCode: '206' });
    const tagBefore = (await get(n.id)).headers.etag;
    const first = await upload(n.id, MP3, 'audio/mpeg');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ greetingAudioUrl: expect.stringMatching(new RegExp(`^${svc.baseUrl}/media/greeting_[A-Za-z0-9]+\\.mp3$`)) });
    expect(first.headers.etag).not.toBe(tagBefore);
    const served = await fetchPublic(first.body.greetingAudioUrl);
    expect(served).toEqual({ status: 200, type: 'audio/mpeg', bytes: MP3 });

    // Uploaded before the first route PUT: the route, once saved, carries it, and keeps it across PUTs.
    expect((await get(n.id)).body.route).toBeNull();
    const saved = await put(n.id, { destinations: [], voicemailEnabled: true });
    expect(saved.body.route.voicemailGreetingAudioUrl).toBe(first.body.greetingAudioUrl);

    const second = await upload(enc(n.phoneNumber), WAV, 'audio/wav');
    expect(second.status).toBe(200);
    expect(second.body.greetingAudioUrl).toMatch(/\.wav$/);
    expect(second.body.greetingAudioUrl).not.toBe(first.body.greetingAudioUrl);
    expect(await fetchPublic(second.body.greetingAudioUrl)).toEqual({ status: 200, type: 'audio/wav', bytes: WAV });
    // The replaced recording is gone.
    const gone = await svc.call('GET', new URL(first.body.greetingAudioUrl).pathname, { key: null });
    expectError(gone, 404, 'not_found');
    expect((await get(n.id)).body.route.voicemailGreetingAudioUrl).toBe(second.body.greetingAudioUrl);
    expect((await put(n.id, { destinations: [] })).body.route.voicemailGreetingAudioUrl).toBe(second.body.greetingAudioUrl);

    const third = await upload(n.id, OGG, 'audio/ogg; codecs=opus');
    expect(third.status).toBe(200);
    expect(await fetchPublic(third.body.greetingAudioUrl)).toEqual({ status: 200, type: 'audio/ogg', bytes: OGG });
    // An MPEG frame without an ID3 tag is audio/mpeg too.
    expect((await upload(n.id, Buffer.from([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]), 'audio/mpeg')).status).toBe(200);
  });

  it('refuses other types, empty, mislabelled and oversized bodies in the envelope, changing nothing', async () => {
    const n = await buy(svc, { areaCode: '206' });
    const ok = await upload(n.id, MP3, 'audio/mpeg');
    const tag = (await get(n.id)).headers.etag;
    expectError(await upload(n.id, MP3, 'audio/flac'), 400, 'validation_error', ['headers', 'content-type']);
    expectError(await upload(n.id, MP3, 'application/octet-stream'), 400, 'validation_error', ['headers', 'content-type']);
    expectError(await upload(n.id, '{"audio":"x"}', 'application/json'), 400, 'validation_error', ['headers', 'content-type']);
    expectError(await upload(n.id, MP3), 400, 'validation_error', ['headers', 'content-type']);
    expectError(await upload(n.id, Buffer.alloc(0), 'audio/mpeg'), 400, 'validation_error', ['body']);
    expectError(await upload(n.id, WAV, 'audio/mpeg'), 400, 'validation_error', ['body']);
    expectError(await upload(n.id, MP3, 'audio/ogg'), 400, 'validation_error', ['body']);
    const big = await upload(n.id, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(GREETING_AUDIO_MAX_BYTES)]), 'audio/mpeg');
    expectError(big, 400, 'validation_error', ['body']);
    expect(big.body.error.message).toMatch(/5 MB/);
    // Exactly 5 MB is accepted.
    const max = await upload(n.id, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(GREETING_AUDIO_MAX_BYTES - 3)]), 'audio/mpeg');
    expect(max.status).toBe(200);
    expect((await get(n.id)).headers.etag).not.toBe(tag);
    expect(ok.status).toBe(200);
    // The JSON routes do not take audio.
    const jsonRoute = await svc.call('PUT', routeOf(n.id), { rawBody: MP3, headers: { 'content-type': 'audio/mpeg' } });
    expectError(jsonRoute, 400, 'validation_error', ['headers', 'content-type']);
  });

  it('answers 404 for unknown media, without auth', async () => {
    expectError(await svc.call('GET', '/media/greeting_doesnotexist.mp3', { key: null }), 404, 'not_found');
    expectError(await svc.call('GET', '/media/greeting_x.exe', { key: null }), 404, 'not_found');
  });
});

describe('api/resources/routes', () => {
  it('gets, puts with If-Match, and uploads through the client', async () => {
    const n = await buy(svc, { areaCode: '503' });
    const client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: svc.bootstrap.liveKey, maxAttempts: 1 });
    const empty = await getRoute(client, n.phoneNumber);
    expect(empty.data).toEqual({ route: null, features: [...ROUTE_FEATURES] });
    const saved = await putRoute(client, n.id, { destinationType: 'pstn', destination: PSTN }, { ifMatch: empty.etag });
    expect(saved.data.route.destination).toBe(PSTN);
    expect(saved.etag).toBeDefined();
    const err = await putRoute(client, n.id, { destinations: [] }, { ifMatch: empty.etag }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('conflict');
    const up = await uploadGreeting(client, n.id, OGG, 'audio/ogg');
    expect(up.greetingAudioUrl).toMatch(/\/media\/greeting_\w+\.ogg$/);
    const read = await getRoute(client, n.id);
    expect(read.data.route?.voicemailGreetingAudioUrl).toBe(up.greetingAudioUrl);
    expect(read.etag).not.toBe(saved.etag);
  });
});
