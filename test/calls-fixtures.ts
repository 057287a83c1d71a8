// Test support for the voice tests (not itself a test file): numbers with routes, calls placed and
// walked through the sandbox, softphone devices, blocklist entries, and the account's call events,
// all through the API.
import { expect } from 'vitest';
import type { TestService } from './helpers/service.js';
import { advance, buy } from './messages-fixtures.js';
import { asAccount, feedEvents } from './helpers/reads.js';
import { BLOCK_SUGGESTION } from '../src/api/values/calls.js';

export const CALLER = '+14155550123';
export const PSTN = '+14155550199';

/** A voice number of the account with this route (PUT /v1/numbers/{id}/route). */
export async function voiceNumber(svc: TestService, route: Record<string, unknown> | null = { destinationType: 'pstn', destination: PSTN }): Promise<any> {
  const n = await buy(svc, { want: (c) => c.voice });
  if (route) {
    const res = await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: route });
    expect(res.status, res.text).toBe(200);
  }
  return n;
}

/** POST /v1/sandbox/calls; expects 201. */
export async function placeCall(svc: TestService, to: string, scenario: Record<string, unknown> = {}, opts: { from?: string; key?: string } = {}): Promise<any> {
  const res = await svc.call('POST', '/v1/sandbox/calls', { body: { from: opts.from ?? CALLER, to, scenario }, key: opts.key });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function getCall(svc: TestService, id: string): Promise<any> {
  const res = await svc.call('GET', `/v1/calls/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function traceOf(svc: TestService, id: string): Promise<Array<{ at: string; step: string; detail: string }>> {
  const res = await svc.call('GET', `/v1/calls/${id}/trace`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The account's events about this call (call.* and voicemail.received) from `GET /v1/events`, oldest first; `body` is the event as delivered. */
export async function callEvents(svc: TestService, callId: string, accountId = svc.bootstrap.accountId): Promise<Array<{ type: string; body: any }>> {
  const events = await feedEvents(svc, asAccount(svc, accountId));
  return events.filter((e) => e.callId === callId).map(({ eventId: _, ...body }) => ({ type: body.type, body }));
}

/**
 * A softphone device of the account (`POST /v1/webrtc/devices`), with a heartbeat of `presence`
 * now (`POST /v1/webrtc/devices/{id}/presence`), or none with `presence: 'never'` (`lastSeenAt` null).
 * A device goes stale when the service clock passes its heartbeat by more than the staleness window.
 */
export async function seedDevice(svc: TestService, opts: { userId?: string; presence?: 'online' | 'offline' | 'never' } = {}): Promise<string> {
  const res = await svc.call('POST', '/v1/webrtc/devices', { body: { userId: opts.userId ?? 'user-1', label: `desk-${++devices}` } });
  expect(res.status, res.text).toBe(201);
  const id = res.body.id as string;
  const presence = opts.presence ?? 'online';
  if (presence !== 'never') {
    const beat = await svc.call('POST', `/v1/webrtc/devices/${id}/presence`, { body: { status: presence } });
    expect(beat.status, beat.text).toBe(200);
  }
  return id;
}
let devices = 0;

/** A destination of a route as `GET` shows it, as `PUT` takes it (ids and priorities are minted by PUT). */
const destinationBody = ({ id: _id, priority: _priority, ...d }: any) => d;
/** A greeting or notice as `GET` shows it (`text`, `audioUrl`, null when absent), as `PUT` takes it. */
const textOrAudioBody = (t: any) => t && Object.fromEntries(Object.entries(t).filter(([, v]) => v !== null));
const ivrActionBody = (a: any) => (a.type === 'ring' ? { ...a, destinations: a.destinations.map(destinationBody) } : a);

/**
 * Makes the number's route ring these devices, in this order (webrtc destinations, each with this
 * ring timeout and the label, stage and enabled flag of the route's first destination), keeping the
 * rest of the route: `GET` then `PUT /v1/numbers/{id}/route`.
 */
export async function ringDevices(svc: TestService, numberId: string, deviceIds: string[], ringTimeoutSecs = 25): Promise<void> {
  const got = await svc.call('GET', `/v1/numbers/${numberId}/route`);
  expect(got.status, got.text).toBe(200);
  const {
    id: _id,
    destinationType: _type,
    destination: _destination,
    ringTimeoutSecs: _timeout,
    voicemailGreetingAudioUrl: _greetingAudio,
    destinations: current,
    recordingNotice,
    ivr,
    ...settings
  } = got.body.route;
  const { label, stage, enabled } = current[0];
  const destinations = deviceIds.map((destination) => ({ destinationType: 'webrtc', destination, label, stage, enabled, ringTimeoutSecs }));
  const body = {
    ...settings,
    destinations,
    recordingNotice: textOrAudioBody(recordingNotice),
    ivr: ivr && { ...ivr, greeting: textOrAudioBody(ivr.greeting), keys: ivr.keys.map((k: any) => ({ ...k, action: ivrActionBody(k.action) })), fallback: ivrActionBody(ivr.fallback) },
  };
  const put = await svc.call('PUT', `/v1/numbers/${numberId}/route`, { body });
  expect(put.status, put.text).toBe(200);
}

/**
 * A blocklist entry for `phoneNumber`: confirmed (`POST /v1/blocked-numbers`, reason `spam`), or a
 * suggestion as the service makes one (`autoSuggested`): BLOCK_SUGGESTION.calls missed inbound calls
 * from the number to a new voice number of the account, each rung to its 25 s ring timeout (the
 * service clock moves on by that much per call).
 */
export async function seedBlock(svc: TestService, phoneNumber: string, autoSuggested = false): Promise<string> {
  if (!autoSuggested) {
    const res = await svc.call('POST', '/v1/blocked-numbers', { body: { phoneNumber, reason: 'spam' } });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }
  const n = await voiceNumber(svc, { destinationType: 'pstn', destination: PSTN, ringTimeoutSecs: 25 });
  for (let i = 0; i < BLOCK_SUGGESTION.calls; i++) {
    const call = await placeCall(svc, n.phoneNumber, {}, { from: phoneNumber });
    await advance(svc, 25);
    expect((await getCall(svc, call.id)).status).toBe('missed');
  }
  const list = await svc.call('GET', '/v1/blocked-numbers?autoSuggested=true&limit=100');
  expect(list.status, list.text).toBe(200);
  const entry = list.body.data.find((b: any) => b.phoneNumber === phoneNumber);
  expect(entry, `no suggestion for ${phoneNumber}`).toBeDefined();
  return entry.id;
}

/** A blocklist entry's count of rejected calls and its last (epoch ms), from `GET /v1/blocked-numbers/{id}`. */
export async function blockRow(svc: TestService, id: string): Promise<{ blocked_call_count: number; last_blocked_at: number | null }> {
  const res = await svc.call('GET', `/v1/blocked-numbers/${id}`);
  expect(res.status, res.text).toBe(200);
  return { blocked_call_count: res.body.blockedCallCount, last_blocked_at: res.body.lastBlockedAt === null ? null : Date.parse(res.body.lastBlockedAt) };
}
