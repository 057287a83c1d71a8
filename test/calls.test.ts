import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, buy } from './messages-fixtures.js';
import { CALLER, PSTN, blockRow, callEvents, getCall, placeCall, ringDevices, seedBlock, seedDevice, traceOf, voiceNumber } from './calls-fixtures.js';
import { wavHeader as readWavHeader } from './helpers/wav.js';
import { callState, chargesFor } from './helpers/inspect.js';
import { PRICES } from '../src/api/values/prices.js';
import { OUTBOUND_CALL_SIMULATION, VOICEMAIL_DEFAULT_SECS, callTranscriptDelaySecs } from '../src/api/values/calls.js';
import { fundAccount } from './helpers/money.js';
import { ApiClient } from '../src/api/client/client.js';
import { ApiError } from '../src/api/client/errors.js';
import { hangUpSandboxCall, pressSandboxCallDigits } from '../src/api/resources/sandbox-calls.js';

// contract §6 (calls, voicemails, transfer, trace, outbound softphone calls), §9 (sandbox calls), §11
// (voice usage) — over HTTP on loopback, with a manual clock walked by the sandbox advance.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  // This file buys, registers and calls more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
});
afterAll(async () => {
  await svc?.stop();
});

const types = async (callId: string) => (await callEvents(svc, callId)).map((e) => e.type);
const charges = async (ref: string) => await chargesFor(svc, svc.bootstrap.accountId, ref);

async function fetchBytes(url: string, key: string | null = svc.bootstrap.liveKey): Promise<{ status: number; type: string | undefined; bytes: Buffer }> {
  const res = await request(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.statusCode, type: res.headers['content-type'] as string | undefined, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

describe('POST /v1/sandbox/calls', () => {
  it('opens a ringing inbound call on the number; the steps run on the clock', async () => {
    const n = await voiceNumber(svc);
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 5, durationSecs: 61 } });
    expect(call).toMatchObject({ id: expect.stringMatching(/^call_/), numberId: n.id, direction: 'inbound', from: CALLER, to: n.phoneNumber, status: 'ringing', answeredAt: null, endedAt: null, durationSeconds: null, outcome: null });

    await svc.advanceJobs(0); // runs the steps due now (the sandbox advance takes at least 1 s)
    expect((await traceOf(svc, call.id)).map((t) => t.step)).toEqual(['blocklist', 'leg.dialed']);
    await advance(svc, 4);
    expect((await getCall(svc, call.id)).status).toBe('ringing');
    await advance(svc, 1);
    const answered = await getCall(svc, call.id);
    expect(answered).toMatchObject({ status: 'in_progress', answeredBy: PSTN, answeredDevice: null, durationSeconds: null });
    expect(Date.parse(answered.answeredAt) - Date.parse(answered.startedAt)).toBe(5000);

    await advance(svc, 61);
    const done = await getCall(svc, call.id);
    expect(done).toMatchObject({ status: 'completed', durationSeconds: 61, outcome: null });
    const events = await callEvents(svc, call.id);
    expect(events.map((e) => e.type)).toEqual(['call.completed']);
    expect(events[0]!.body).toMatchObject({ callId: call.id, from: CALLER, to: n.phoneNumber, durationSeconds: 61, answeredBy: PSTN, answeredDevice: null, direction: 'inbound', answeredAt: answered.answeredAt, endedAt: done.endedAt });
    // contract §11: 61 s of talk is two started minutes, live key.
    expect(await charges(call.id)).toEqual([expect.objectContaining({ category: 'voice', quantity: 2, amountCents: 2 * PRICES.voiceMinute })]);
    expect(await callState(svc, call.id)).toBeNull();
  });

  it('`to` must be a voice number of the account: 400 on body.to as inbound messages answer, 422 without voice', async () => {
    const res = await svc.call('POST', '/v1/sandbox/calls', { body: { from: CALLER, to: '+12125550100' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['body', 'to'] }] });
    const bad = await svc.call('POST', '/v1/sandbox/calls', { body: { from: CALLER, to: 'nope', scenario: { digits: 'x' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: any) => d.path)).toEqual(expect.arrayContaining([['body', 'to'], ['body', 'scenario', 'digits']]));

    const noVoice = await buy(svc, { want: (c) => !c.voice });
    const res2 = await svc.call('POST', '/v1/sandbox/calls', { body: { from: CALLER, to: noVoice.phoneNumber } });
    expect(res2.status).toBe(422);
    expect(res2.body.error).toMatchObject({ code: 'channel_unsupported', details: [{ path: ['body', 'to'] }] });
  });

  it('a call placed with a test key records no usage', async () => {
    const n = await voiceNumber(svc);
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 0, durationSecs: 30 } }, { key: svc.bootstrap.testKey });
    await advance(svc, 31);
    expect((await getCall(svc, call.id)).status).toBe('completed');
    expect(await charges(call.id)).toEqual([]);
  });
});

describe('call.* events and voicemail', () => {
  it('rings every dialed softphone leg once (call.ringing with its device), and the answering device is on call.completed', async () => {
    const n = await voiceNumber(svc);
    const stale = await seedDevice(svc, { userId: 'carol' });
    await advance(svc, 120); // carol's last heartbeat is now two minutes old: stale
    const a = await seedDevice(svc, { userId: 'alice' });
    const b = await seedDevice(svc, { userId: 'bob' });
    await ringDevices(svc, n.id, [a, b, stale]);
    const call = await placeCall(svc, n.phoneNumber, { answer: { deviceId: b, afterSecs: 3, durationSecs: 10 } });
    await advance(svc, 13);
    const events = await callEvents(svc, call.id);
    expect(events.map((e) => e.type)).toEqual(['call.ringing', 'call.ringing', 'call.completed']);
    expect(events[0]!.body).toMatchObject({ callId: call.id, from: CALLER, to: n.phoneNumber, devices: [{ deviceId: a, userId: 'alice' }], direction: 'inbound' });
    expect(events[1]!.body.devices).toEqual([{ deviceId: b, userId: 'bob' }]);
    expect(events[2]!.body).toMatchObject({ answeredBy: b, answeredDevice: b, direction: 'inbound' });
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'completed', answeredDevice: b, answeredBy: b, durationSeconds: 10 });
    const skipped = (await traceOf(svc, call.id)).filter((t) => t.step === 'leg.skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.detail).toContain('stale device');
  });

  it('a missed call with voicemail: call.missed (outcome voicemail) then voicemail.received, a voicemail row and its audio', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: PSTN, voicemailEnabled: true });
    const call = await placeCall(svc, n.phoneNumber);
    // contract §6: nothing answers within the 25 s ring timeout; the voicemail then records.
    await advance(svc, 24);
    expect((await getCall(svc, call.id)).status).toBe('ringing');
    await advance(svc, 1 + VOICEMAIL_DEFAULT_SECS);
    const missed = await getCall(svc, call.id);
    expect(missed).toMatchObject({ status: 'missed', outcome: 'voicemail', voicemailId: expect.stringMatching(/^vm_/), answeredAt: null, durationSeconds: null });
    const events = await callEvents(svc, call.id);
    expect(events.map((e) => e.type)).toEqual(['call.missed', 'voicemail.received']);
    expect(events[0]!.body).toMatchObject({ outcome: 'voicemail', direction: 'inbound' });
    // The simulated transcriber hears 30 s of speech: the transcript arrives with the voicemail.
    expect(events[1]!.body).toMatchObject({ voicemailId: missed.voicemailId, durationSeconds: VOICEMAIL_DEFAULT_SECS, transcriptStatus: 'available' });
    const transcript = events[1]!.body.transcript as string;
    expect(transcript.length).toBeGreaterThan(20);
    // The event's audio URL is absolute, on the address the call was placed through.
    expect(events[1]!.body.recordingUrl).toBe(`${svc.baseUrl}/v1/voicemails/${missed.voicemailId}/audio`);

    const list = await svc.call('GET', '/v1/voicemails');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    const vm = list.body.data.find((v: any) => v.id === missed.voicemailId);
    expect(vm).toEqual({
      id: missed.voicemailId,
      callId: call.id,
      numberId: n.id,
      from: CALLER,
      to: n.phoneNumber,
      durationSeconds: VOICEMAIL_DEFAULT_SECS,
      transcript,
      transcriptStatus: 'available',
      recordingUrl: `${svc.baseUrl}/v1/voicemails/${missed.voicemailId}/audio`,
      receivedAt: missed.endedAt,
    });
    expect((await svc.call('GET', `/v1/voicemails/${vm.id}`)).body).toEqual(vm);
    const audio = await fetchBytes(vm.recordingUrl);
    expect(audio.status).toBe(200);
    expect(audio.type).toBe('audio/wav');
    expect(readWavHeader(audio.bytes)).toMatchObject({ format: 1, sampleRate: 8000, bitsPerSample: 16, channels: 1, seconds: VOICEMAIL_DEFAULT_SECS });
    expect((await svc.call('GET', '/v1/voicemails/vm_nope')).status).toBe(404);
  });

  it('a recorded, live-transcribed call: call.transcript after the end with an absolute recording URL; voice and transcription minutes charged', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: PSTN, recordCalls: true, liveTranscription: true });
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 0, durationSecs: 61 } });
    await advance(svc, 61);
    const done = await getCall(svc, call.id);
    expect(done).toMatchObject({ status: 'completed', durationSeconds: 61, recordingId: expect.stringMatching(/^rec_/) });
    expect(await types(call.id)).toEqual(['call.completed']);
    // spec: call.transcript — seconds to minutes after the end; the call's status is already final.
    await advance(svc, callTranscriptDelaySecs(61));
    const events = await callEvents(svc, call.id);
    expect(events.map((e) => e.type)).toEqual(['call.completed', 'call.transcript']);
    const t = events[1]!.body;
    expect(t).toMatchObject({ callId: call.id, recordingId: done.recordingId, transcriptStatus: 'available', durationSeconds: 61, recordingUrl: `${svc.baseUrl}/v1/calls/${call.id}/recording` });
    expect(t.transcriptTurns.length).toBeGreaterThan(1);
    expect(t.transcript.length).toBeGreaterThan(20);
    expect(await callState(svc, call.id)).toBeNull();
    // contract §11: 2 started minutes of talk, 2 transcribed live, 2 transcribed from the recording.
    expect(await charges(call.id)).toEqual([expect.objectContaining({ category: 'voice', quantity: 2, amountCents: 2 * PRICES.voiceMinute })]);
    expect(await charges(`${call.id}:live`)).toEqual([expect.objectContaining({ category: 'transcription', quantity: 2, amountCents: 2 * PRICES.transcriptionMinute })]);
    expect(await charges(done.recordingId)).toEqual([expect.objectContaining({ category: 'transcription', quantity: 2, amountCents: 2 * PRICES.transcriptionMinute })]);
  });

  it('a voicemail too short to transcribe still delivers (transcript null, failed), its audio stays, nothing is charged for it', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: PSTN, voicemailEnabled: true });
    const call = await placeCall(svc, n.phoneNumber, { hangupAfterSecs: 26 });
    await advance(svc, 30);
    const missed = await getCall(svc, call.id);
    expect(missed).toMatchObject({ status: 'missed', outcome: 'voicemail', voicemailId: expect.stringMatching(/^vm_/) });
    const events = await callEvents(svc, call.id);
    expect(events.map((e) => e.type)).toEqual(['call.missed', 'voicemail.received']);
    expect(events[1]!.body).toMatchObject({ transcript: null, transcriptStatus: 'failed' });
    const audio = await fetchBytes(events[1]!.body.recordingUrl);
    expect(audio.status).toBe(200);
    expect(readWavHeader(audio.bytes).seconds).toBeGreaterThan(0);
    expect(await charges(missed.voicemailId)).toEqual([]);
  });

  it('clock advance walks a call through its 25 s ring timeout to call.missed (outcome missed) when there is no voicemail', async () => {
    const n = await voiceNumber(svc);
    const call = await placeCall(svc, n.phoneNumber);
    await advance(svc, 25);
    const missed = await getCall(svc, call.id);
    expect(missed).toMatchObject({ status: 'missed', outcome: 'missed', voicemailId: null });
    expect(Date.parse(missed.endedAt) - Date.parse(missed.startedAt)).toBe(25_000);
    const events = await callEvents(svc, call.id);
    expect(events.map((e) => e.type)).toEqual(['call.missed']);
    expect(events[0]!.body).toMatchObject({ outcome: 'missed', direction: 'inbound', endedAt: missed.endedAt });
  });
});

describe('sandbox scenarios (contract §9)', () => {
  const IVR = {
    destinations: [{ destinationType: 'pstn', destination: PSTN }],
    voicemailEnabled: true,
    ivr: {
      enabled: true,
      greeting: { text: 'Press 1 for sales, 2 for voicemail' },
      keys: [
        { digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550177' }] } },
        { digit: '2', label: 'Voicemail', action: { type: 'voicemail' } },
      ],
    },
  };

  it('digits: the caller presses an IVR key → call.ivr.key_pressed (with direction), then its action', async () => {
    const n = await voiceNumber(svc, IVR);
    const call = await placeCall(svc, n.phoneNumber, { digits: '9', answer: { afterSecs: 2, durationSecs: 5 } });
    // 9 is not on the menu (invalid, retried once), then no digit: the digit timeout (5 s) → fallback voicemail.
    await advance(svc, 5 + VOICEMAIL_DEFAULT_SECS);
    expect(await types(call.id)).toEqual(['call.missed', 'voicemail.received']);
    expect((await traceOf(svc, call.id)).map((t) => t.step)).toEqual(expect.arrayContaining(['ivr.prompt', 'ivr.invalid', 'ivr.timeout', 'ivr.fallback', 'voicemail']));

    const sales = await placeCall(svc, n.phoneNumber, { digits: '1', answer: { afterSecs: 2, durationSecs: 5 } });
    await advance(svc, 7);
    const events = await callEvents(svc, sales.id);
    expect(events.map((e) => e.type)).toEqual(['call.ivr.key_pressed', 'call.completed']);
    expect(events[0]!.body).toMatchObject({ digit: '1', label: 'Sales', numberId: n.id, direction: 'inbound' });
    expect(events[1]!.body.answeredBy).toBe('+14155550177');
  });

  it('answer.destinationId picks the answering leg of a sequential ring set', async () => {
    const n = await voiceNumber(svc, { ringMode: 'sequential', destinations: [{ destinationType: 'pstn', destination: PSTN, ringTimeoutSecs: 10 }, { destinationType: 'pstn', destination: '+14155550188' }] });
    const route = await svc.call('GET', `/v1/numbers/${n.id}/route`);
    expect(route.status, route.text).toBe(200);
    const second = route.body.route.destinations[1]!;
    expect(second.destination).toBe('+14155550188');
    const call = await placeCall(svc, n.phoneNumber, { answer: { destinationId: second.id, afterSecs: 4, durationSecs: 20 } });
    await advance(svc, 14);
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'in_progress', answeredBy: '+14155550188' });
    await advance(svc, 20);
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'completed', durationSeconds: 20 });
  });

  it('hangupAfterSecs: the caller hangs up while it rings → call.missed at that time', async () => {
    const n = await voiceNumber(svc);
    const call = await placeCall(svc, n.phoneNumber, { hangupAfterSecs: 8 });
    await advance(svc, 30);
    const c = await getCall(svc, call.id);
    expect(c).toMatchObject({ status: 'missed', outcome: 'missed' });
    expect(Date.parse(c.endedAt) - Date.parse(c.startedAt)).toBe(8000);
    expect((await traceOf(svc, call.id)).some((t) => t.step === 'hangup')).toBe(true);
  });

  it('machine: a machine picks up the forwarded leg → call.missed outcome voicemail, no voicemail row', async () => {
    const n = await voiceNumber(svc, { destinations: [], noAnswerAction: { type: 'forward', to: '+14155550166' } });
    const call = await placeCall(svc, n.phoneNumber, { machine: true });
    await advance(svc, 25 + VOICEMAIL_DEFAULT_SECS);
    const c = await getCall(svc, call.id);
    expect(c).toMatchObject({ status: 'missed', outcome: 'voicemail', voicemailId: null });
    expect(await types(call.id)).toEqual(['call.missed']);
    expect((await traceOf(svc, call.id)).some((t) => t.step === 'machine')).toBe(true);
  });
});

describe("the caller's keys and hang-up through the API (extension)", () => {
  const IVR = {
    destinations: [{ destinationType: 'pstn', destination: PSTN }],
    voicemailEnabled: true,
    ivr: {
      enabled: true,
      greeting: { text: 'Press 1 for sales, 2 for voicemail' },
      keys: [
        { digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550177' }] } },
        { digit: '2', label: 'Voicemail', action: { type: 'voicemail' } },
      ],
    },
  };
  const digits = (id: string, body: unknown, key?: string) => svc.call('POST', `/v1/sandbox/calls/${id}/digits`, { body, key });
  const hangUp = (id: string, key?: string) => svc.call('POST', `/v1/sandbox/calls/${id}/hangup`, { key });
  /** The call as shown, its trace and its engine's saved state: what "nothing changed" compares. */
  const stored = async (id: string) => JSON.stringify([await getCall(svc, id), await traceOf(svc, id), await callState(svc, id)]);

  it('digits reach the menu waiting for them: the first at once, the rest at the prompts that follow; the trace shows the branch taken', async () => {
    const n = await voiceNumber(svc, IVR);
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    // The menu waits for a key (manual clock: its digit timeout does not come by itself).
    expect((await traceOf(svc, call.id)).map((t) => t.step)).toContain('ivr.prompt');
    const pressed = await digits(call.id, { digits: '92' });
    expect(pressed.status, pressed.text).toBe(200);
    expect(pressed.body).toMatchObject({ id: call.id, status: 'ringing', endedAt: null });
    await svc.advanceJobs(0);
    const trace = await traceOf(svc, call.id);
    // 9 is not on the menu: the menu again, where 2 is read.
    expect(trace.filter((t) => t.step.startsWith('ivr.')).map((t) => `${t.step}: ${t.detail}`)).toEqual([
      expect.stringMatching(/^ivr\.prompt: /),
      'ivr.invalid: 9 is not on the menu',
      expect.stringMatching(/^ivr\.prompt: .*again, after 1 failed/),
      'ivr.key: 2 (Voicemail) → voicemail',
    ]);
    expect(trace.map((t) => t.step)).toContain('voicemail');
    expect((await callEvents(svc, call.id)).find((e) => e.type === 'call.ivr.key_pressed')?.body).toMatchObject({ digit: '2', label: 'Voicemail' });

    // Past the menu a key reaches no one: 409, nothing changed.
    const before = await stored(call.id);
    const late = await digits(call.id, { digits: '1' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('conflict');
    expect(await stored(call.id)).toBe(before);

    // The caller hangs up during the voicemail: the call ends and the message is kept.
    const hung = await hangUp(call.id);
    expect(hung.status, hung.text).toBe(200);
    expect(hung.body.id).toBe(call.id);
    await svc.advanceJobs(0);
    const ended = await getCall(svc, call.id);
    expect(ended.endedAt).not.toBeNull();
    expect(ended).toMatchObject({ status: 'missed', outcome: 'voicemail' });
    expect((await traceOf(svc, call.id)).map((t) => t.step)).toContain('hangup');
    expect(await types(call.id)).toEqual(['call.ivr.key_pressed', 'call.missed', 'voicemail.received']);
    // A call no longer under way: 409 for both, as the console's phone answers.
    const after = await stored(call.id);
    expect((await hangUp(call.id)).status).toBe(409);
    expect((await digits(call.id, { digits: '1' })).status).toBe(409);
    expect(await stored(call.id)).toBe(after);
  });

  it('keys pressed before the menu are read at its prompt; an answered call hung up ends completed', async () => {
    const n = await voiceNumber(svc, IVR);
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 2, durationSecs: 600 } });
    // Not yet stepped: the key waits for the prompt, as a scenario's digits do.
    expect((await digits(call.id, { digits: '1' })).status).toBe(200);
    await advance(svc, 5);
    expect((await traceOf(svc, call.id)).find((t) => t.step === 'ivr.key')?.detail).toBe('1 (Sales) → ring');
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'in_progress', answeredBy: '+14155550177' });
    expect((await hangUp(call.id)).status).toBe(200);
    await svc.advanceJobs(0);
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'completed', durationSeconds: 3 });
  });

  it('bad digits are 400 naming the field, a call would take too many keys 409; nothing changes', async () => {
    const n = await voiceNumber(svc, IVR);
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    const before = await stored(call.id);
    for (const body of [{ digits: 'x' }, { digits: '' }, { digits: '1a' }, { digits: 12 }, {}, { digits: '1'.repeat(33) }]) {
      const res = await digits(call.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatchObject({ code: 'validation_error', details: [{ path: ['body', 'digits'] }] });
    }
    const extra = await digits(call.id, { digits: '1', extra: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details.map((d: any) => d.path)).toEqual([['body', 'extra']]);
    // contract §9: a sandbox call takes at most 32 keys, its scenario's and the ones pressed together.
    const many = await placeCall(svc, n.phoneNumber, { digits: '9'.repeat(30) });
    const manyBefore = await stored(many.id);
    const tooMany = await digits(many.id, { digits: '123' });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toMatch(/at most 32/);
    expect(await stored(many.id)).toBe(manyBefore);
    expect((await digits(many.id, { digits: '12' })).status).toBe(200);
    expect(await stored(call.id)).toBe(before);
    expect((await digits('call_unknown', { digits: '1' })).status).toBe(404);
  });

  it('the client drives a call through api/resources as a script or the CLI would', async () => {
    const n = await voiceNumber(svc, IVR);
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    const client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: svc.bootstrap.liveKey, maxAttempts: 1 });
    expect((await pressSandboxCallDigits(client, call.id, '2')).id).toBe(call.id);
    await svc.advanceJobs(0);
    expect((await traceOf(svc, call.id)).find((t) => t.step === 'ivr.key')?.detail).toBe('2 (Voicemail) → voicemail');
    expect((await hangUpSandboxCall(client, call.id)).id).toBe(call.id);
    await svc.advanceJobs(0);
    const err = await hangUpSandboxCall(client, call.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('conflict');
  });

  it("another account's call is not_found; a test key acts only on a call a test key placed (contract §2)", async () => {
    const n = await voiceNumber(svc, IVR);
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    const before = await stored(call.id);
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Caller child' } })).body;
    const childKey = (await svc.call('POST', '/v1/keys', { body: { name: 'caller child', mode: 'live' }, headers: { 'service-subaccount': child.id } })).body.key;
    for (const res of [await digits(call.id, { digits: '2' }, childKey), await hangUp(call.id, childKey)]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    // The root account's test key, on a call its live key placed: refused.
    for (const res of [await digits(call.id, { digits: '2' }, svc.bootstrap.testKey), await hangUp(call.id, svc.bootstrap.testKey)]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect(await stored(call.id)).toBe(before);
    // A call the test key placed is the test key's to drive.
    const mine = await placeCall(svc, n.phoneNumber, {}, { key: svc.bootstrap.testKey });
    expect((await digits(mine.id, { digits: '2' }, svc.bootstrap.testKey)).status).toBe(200);
    expect((await hangUp(mine.id, svc.bootstrap.testKey)).status).toBe(200);
    await svc.advanceJobs(0);
    expect((await getCall(svc, mine.id)).endedAt).not.toBeNull();
  });
});

describe('the blocklist', () => {
  it('a confirmed entry rejects the call (status blocked, no call.* event) and counts it; a suggestion is not enforced', async () => {
    const n = await voiceNumber(svc);
    const spammer = '+14155550111';
    const entry = await seedBlock(svc, spammer);
    const call = await placeCall(svc, n.phoneNumber, {}, { from: spammer });
    await svc.advanceJobs(0); // runs the steps due now (the sandbox advance takes at least 1 s)
    const c = await getCall(svc, call.id);
    expect(c).toMatchObject({ status: 'blocked', endedAt: c.startedAt });
    expect(await types(call.id)).toEqual([]);
    expect(await blockRow(svc, entry)).toEqual({ blocked_call_count: 1, last_blocked_at: Date.parse(c.startedAt) });
    await placeCall(svc, n.phoneNumber, {}, { from: spammer });
    await svc.advanceJobs(0); // runs the steps due now (the sandbox advance takes at least 1 s)
    expect((await blockRow(svc, entry)).blocked_call_count).toBe(2);

    const suggested = '+14155550112';
    const s = await seedBlock(svc, suggested, true);
    const ok = await placeCall(svc, n.phoneNumber, {}, { from: suggested });
    await svc.advanceJobs(0); // runs the steps due now (the sandbox advance takes at least 1 s)
    expect((await getCall(svc, ok.id)).status).toBe('ringing');
    expect((await blockRow(svc, s)).blocked_call_count).toBe(0);
  });
});

describe('GET /v1/calls filters, recording, transfer', () => {
  it('lists newest first with status and direction filters', async () => {
    const n = await voiceNumber(svc);
    const ringing = await placeCall(svc, n.phoneNumber);
    const all = await svc.call('GET', '/v1/calls?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    expect(all.body.data[0].id).toBe(ringing.id);
    const missed = await svc.call('GET', '/v1/calls?status=missed&limit=100');
    expect(missed.body.data.length).toBeGreaterThan(0);
    expect(missed.body.data.every((c: any) => c.status === 'missed')).toBe(true);
    expect(missed.body.data.some((c: any) => c.id === ringing.id)).toBe(false);
    const inbound = await svc.call('GET', '/v1/calls?direction=inbound&limit=100');
    expect(inbound.body.data.length).toBeGreaterThan(0);
    expect(inbound.body.data.every((c: any) => c.direction === 'inbound')).toBe(true);
    const page = await svc.call('GET', '/v1/calls?limit=1');
    expect(page.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const next = await svc.call('GET', `/v1/calls?limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.data[0].id).not.toBe(page.body.data[0].id);
    expect((await svc.call('GET', '/v1/calls?status=bogus')).status).toBe(400);
    await advance(svc, 25);
  });

  it('recording: 404 when not recorded, a WAV as long as the talk when recordCalls is on', async () => {
    const plain = await voiceNumber(svc);
    const unrecorded = await placeCall(svc, plain.phoneNumber, { answer: { afterSecs: 1, durationSecs: 4 } });
    const recorded = await voiceNumber(svc, { destinationType: 'pstn', destination: PSTN, recordCalls: true });
    const call = await placeCall(svc, recorded.phoneNumber, { answer: { afterSecs: 1, durationSecs: 12 } });
    await advance(svc, 13);
    const none = await svc.call('GET', `/v1/calls/${unrecorded.id}/recording`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('not_found');
    const c = await getCall(svc, call.id);
    expect(c.recordingId).toMatch(/^rec_/);
    const wav = await fetchBytes(`${svc.baseUrl}/v1/calls/${call.id}/recording`);
    expect(wav.status).toBe(200);
    expect(wav.type).toBe('audio/wav');
    expect(readWavHeader(wav.bytes)).toMatchObject({ format: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16, seconds: 12 });
    expect((await fetchBytes(`${svc.baseUrl}/v1/calls/${call.id}/recording`, null)).status).toBe(401);
  });

  it('transfer: 409 unless in progress; moves answeredBy/answeredDevice, is traced, and the new party talks the duration again', async () => {
    const n = await voiceNumber(svc);
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 2, durationSecs: 20 } });
    const early = await svc.call('POST', `/v1/calls/${call.id}/transfer`, { body: { to: '+14155550155' } });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('conflict');
    await advance(svc, 7); // answered at +2, 5 s of talk
    const bad = await svc.call('POST', `/v1/calls/${call.id}/transfer`, { body: { to: 'dev_nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ path: ['body', 'to'] })]);

    const dev = await seedDevice(svc, { userId: 'dana' });
    const moved = await svc.call('POST', `/v1/calls/${call.id}/transfer`, { body: { to: dev } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: call.id, status: 'in_progress', answeredBy: dev, answeredDevice: dev });
    const transfer = (await traceOf(svc, call.id)).filter((t) => t.step === 'transfer');
    expect(transfer).toHaveLength(1);
    expect(transfer[0]!.detail).toContain(dev);

    await advance(svc, 19);
    expect((await getCall(svc, call.id)).status).toBe('in_progress');
    await advance(svc, 1);
    const done = await getCall(svc, call.id);
    expect(done).toMatchObject({ status: 'completed', durationSeconds: 25, answeredDevice: dev });
    expect((await callEvents(svc, call.id)).filter((e) => e.type === 'call.completed').map((e) => e.body.answeredDevice)).toEqual([dev]);
    const after = await svc.call('POST', `/v1/calls/${call.id}/transfer`, { body: { to: '+14155550155' } });
    expect(after.status).toBe(409);
    expect((await svc.call('GET', '/v1/calls/call_nope')).status).toBe(404);
  });
});

describe('POST /v1/webrtc/calls', () => {
  it('refuses a from that is not a voice number and a device that is not the account\'s, both at once', async () => {
    const res = await svc.call('POST', '/v1/webrtc/calls', { body: { deviceId: 'dev_nope', from: '+12125550100', to: PSTN } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: any) => d.path)).toEqual([['body', 'from'], ['body', 'deviceId']]);
  });

  it('rings the device, the callee answers, the call completes with direction outbound and the device', async () => {
    const n = await voiceNumber(svc, null);
    const dev = await seedDevice(svc, { userId: 'erin' });
    const res = await svc.call('POST', '/v1/webrtc/calls', { body: { deviceId: dev, from: n.phoneNumber, to: PSTN } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ direction: 'outbound', status: 'ringing', from: n.phoneNumber, to: PSTN, numberId: n.id });
    const id = res.body.id;
    await advance(svc, OUTBOUND_CALL_SIMULATION.answerAfterSecs);
    expect(await getCall(svc, id)).toMatchObject({ status: 'in_progress', answeredBy: PSTN, answeredDevice: dev });
    await advance(svc, OUTBOUND_CALL_SIMULATION.durationSecs);
    expect(await getCall(svc, id)).toMatchObject({ status: 'completed', durationSeconds: OUTBOUND_CALL_SIMULATION.durationSecs });
    const events = await callEvents(svc, id);
    expect(events.map((e) => e.type)).toEqual(['call.completed']);
    expect(events[0]!.body).toMatchObject({ direction: 'outbound', answeredDevice: dev, answeredBy: PSTN, durationSeconds: OUTBOUND_CALL_SIMULATION.durationSecs });
    expect(await charges(id)).toEqual([expect.objectContaining({ category: 'voice', quantity: 1, amountCents: PRICES.voiceMinute })]);
    const outbound = await svc.call('GET', '/v1/calls?direction=outbound');
    expect(outbound.body.data.length).toBeGreaterThan(0);
    expect(outbound.body.data.every((c: any) => c.direction === 'outbound')).toBe(true);
    expect((await traceOf(svc, id)).map((t) => t.step)).toEqual(['leg.dialed', 'leg.dialed', 'answered', 'event', 'ended']);
  });
});

describe('a restart mid-call', () => {
  it('finishes the call from its stored state with no event lost or duplicated', async () => {
    const own = await startTestService();
    const dataDir = own.dataDir;
    let restarted: TestService | undefined;
    try {
      const n = await voiceNumber(own, { destinationType: 'pstn', destination: PSTN, voicemailEnabled: true });
      const dev = await seedDevice(own, { userId: 'frank' });
      await ringDevices(own, n.id, [dev], 10);
      const call = await placeCall(own, n.phoneNumber, { hangupAfterSecs: 20 });
      await own.advanceJobs(3); // rung (call.ringing), the wave ends at +10
      expect((await callEvents(own, call.id)).map((e) => e.type)).toEqual(['call.ringing']);
      const stoppedAt = own.now();
      await own.close(); // the service stops; the data directory stays

      restarted = await startTestService({ dataDir });
      restarted.deps.clock.setTo(stoppedAt);
      expect((await getCall(restarted, call.id)).status).toBe('ringing');
      await restarted.advanceJobs(60);
      const c = await getCall(restarted, call.id);
      // Rung 10 s, then voicemail from +10; the caller hangs up at +20: a 10 s voicemail.
      expect(c).toMatchObject({ status: 'missed', outcome: 'voicemail' });
      expect((await callEvents(restarted, call.id)).map((e) => e.type)).toEqual(['call.ringing', 'call.missed', 'voicemail.received']);
      expect((await callEvents(restarted, call.id))[2]!.body.durationSeconds).toBe(10);
    } finally {
      await restarted?.stop();
      const { rmSync } = await import('node:fs');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
