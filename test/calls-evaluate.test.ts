// contract §6 "Call evaluation" (POST /v1/sandbox/calls/evaluate) and cli.md "Calls as tests"' kept
// coverage (PUT|GET /v1/sandbox/numbers/{id}/call-coverage), over HTTP against the local service. The
// decision webhook's URL is a REAL loopback receiver: an evaluation must never reach it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, startWebhookService, createEndpoint, type Receiver } from './webhooks-receiver.js';
import type { TestService } from './helpers/service.js';
import { storedState } from './helpers/inspect.js';
import { footprint } from './helpers/inspect.js';
import { CALLER, placeCall, voiceNumber } from './calls-fixtures.js';

let svc: TestService;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  svc = await startWebhookService();
  // The decision webhook would be signed with this endpoint's secret (same origin): were the engine
  // to send it, the receiver would see it.
  await createEndpoint(svc, { url: `http://127.0.0.1:${receiver.port}/events`, events: ['message.status'] });
});
afterAll(async () => {
  await svc?.stop();
  await receiver?.close();
});

const ANA = '+14155550101';
const BEN = '+14155550102';
const OPERATOR = '+14155550103';

/** An IVR behind a decision webhook: 1 rings Ana and Ben, 2 is voicemail, the fallback rings the operator, voicemail on no answer. */
const ivrRoute = () => ({
  destinations: [],
  voicemailEnabled: true,
  decisionWebhook: { enabled: true, url: `http://127.0.0.1:${receiver.port}/decide`, timeoutMs: 800 },
  ivr: {
    enabled: true,
    greeting: { text: 'Press 1 for sales, 2 to leave a message' },
    keys: [
      { digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: ANA, label: 'Ana' }, { destinationType: 'pstn', destination: BEN }] } },
      { digit: '2', action: { type: 'voicemail' } },
    ],
    fallback: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: OPERATOR }] },
  },
});

const ALL_IVR_BRANCHES = [
  'blocked',
  'decision.reject',
  'decision.forward',
  'decision.failopen',
  'ivr.key:1',
  'ivr.key:2',
  'ivr.invalid',
  'ivr.timeout',
  'ivr.fallback',
  `answer:${ANA}`,
  `answer:${BEN}`,
  'noanswer:key:1',
  `answer:${OPERATOR}`,
  'noanswer:fallback',
  'voicemail',
];

async function evaluate(body: Record<string, unknown>, key?: string): Promise<any> {
  const res = await svc.call('POST', '/v1/sandbox/calls/evaluate', { body, key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const count = async (path: string) => (await svc.call('GET', path)).body;
/** Everything an evaluation could leave behind: calls, voicemails, events, charges, stored rows, outbound requests. */
const world = async () => ({
  calls: (await count('/v1/calls?limit=100')).data.length,
  voicemails: (await count('/v1/voicemails?limit=100')).data.length,
  events: (await count('/v1/events?limit=100')).data.length,
  billing: await count('/v1/billing'),
  usage: await count('/v1/usage'),
  stored: await storedState(svc),
  requests: receiver.received.length,
});
const taken = (r: { branches: Array<{ id: string; taken: boolean }> }) => r.branches.filter((b) => b.taken).map((b) => b.id);
const steps = (r: { trace: Array<{ step: string; detail: string }> }) => r.trace.map((t) => `${t.step} ${t.detail}`);

describe('POST /v1/sandbox/calls/evaluate', () => {
  it('reaches and reports every kind of branch of an IVR route behind a decision webhook', async () => {
    const n = await voiceNumber(svc, ivrRoute());
    const blockedCaller = '+14155550177';
    expect((await svc.call('POST', '/v1/blocked-numbers', { body: { phoneNumber: blockedCaller } })).status).toBe(201);
    const ok = { status: 200, body: { action: 'continue' } };
    const cases: Array<[Record<string, unknown>, string[], Record<string, unknown>]> = [
      [{ from: blockedCaller }, ['blocked'], { status: 'blocked' }],
      [{ decision: { status: 200, body: { action: 'reject' } } }, ['decision.reject'], { status: 'blocked' }],
      [{ decision: { status: 200, body: { action: 'forward', to: '+14155550144' } }, answer: { '+14155550144': 3 } }, ['decision.forward'], { status: 'completed', answeredBy: '+14155550144' }],
      [{ decision: ok, digits: ['1'], answer: { Ana: 5 } }, ['decision.failopen', 'ivr.key:1', `answer:${ANA}`], { status: 'completed', answeredBy: ANA }],
      [{ decision: { timeout: true }, digits: ['1'], answer: { [BEN]: 2, [ANA]: 9 } }, ['decision.failopen', 'ivr.key:1', `answer:${BEN}`], { status: 'completed', answeredBy: BEN }],
      [{ digits: ['1'] }, ['decision.failopen', 'ivr.key:1', 'noanswer:key:1', 'voicemail'], { status: 'missed', outcome: 'voicemail', voicemail: true }],
      [{ decision: ok, digits: ['2'] }, ['decision.failopen', 'ivr.key:2', 'voicemail'], { status: 'missed', outcome: 'voicemail' }],
      [{ decision: ok, digits: ['9', '2'] }, ['decision.failopen', 'ivr.invalid', 'ivr.key:2', 'voicemail'], { outcome: 'voicemail' }],
      [{ decision: ok, digits: ['', '1'], answer: { Ana: 1 } }, ['decision.failopen', 'ivr.timeout', 'ivr.key:1', `answer:${ANA}`], { answeredBy: ANA }],
      [{ decision: ok, digits: ['9', '9'], answer: { [OPERATOR]: 4 } }, ['decision.failopen', 'ivr.invalid', 'ivr.fallback', `answer:${OPERATOR}`], { answeredBy: OPERATOR }],
      [{ decision: ok }, ['decision.failopen', 'ivr.timeout', 'ivr.fallback', 'noanswer:fallback', 'voicemail'], { outcome: 'voicemail' }],
    ];
    const union = new Set<string>();
    for (const [script, branches, end] of cases) {
      const r = await evaluate({ numberId: n.id, ...script });
      expect(r.branches.map((b: { id: string }) => b.id)).toEqual(ALL_IVR_BRANCHES);
      // `branches` is in graph order, whatever order the call took them in.
      expect(taken(r), JSON.stringify(script)).toEqual(ALL_IVR_BRANCHES.filter((b) => branches.includes(b)));
      expect(taken(r).length).toBe(branches.length);
      expect(r, JSON.stringify(script)).toMatchObject(end);
      for (const b of taken(r)) union.add(b);
    }
    expect([...union].sort()).toEqual([...ALL_IVR_BRANCHES].sort());
  });

  it('a route without an IVR: answer:DEST per enabled destination and noanswer:route; with `route` alone the call is to the reserved test number', async () => {
    const route = {
      ringMode: 'sequential',
      destinations: [
        { destinationType: 'pstn', destination: ANA, label: 'Ana', ringTimeoutSecs: 10 },
        { destinationType: 'sip', destination: 'sip:desk@pbx.example.com', ringTimeoutSecs: 10 },
        { destinationType: 'pstn', destination: BEN, enabled: false },
      ],
      callerIdMode: 'business',
    };
    const answered = await evaluate({ route, answer: { 'sip:desk@pbx.example.com': 4 } });
    expect(answered.branches).toEqual([
      { id: 'blocked', taken: false },
      { id: `answer:${ANA}`, taken: false },
      { id: 'answer:sip:desk@pbx.example.com', taken: true },
      { id: 'noanswer:route', taken: false },
    ]);
    expect(answered).toMatchObject({ status: 'completed', answeredBy: 'sip:desk@pbx.example.com', voicemail: false, outcome: null });
    // Ana rang out (10 s), then the desk answered 4 s later; caller ID: the number called.
    expect(answered.trace.find((t: any) => t.step === 'answered')).toEqual({ atSecs: 14, step: 'answered', detail: 'by sip sip:desk@pbx.example.com (dst_evaluation2)' });
    expect(steps(answered)).toContain(`leg.dialed pstn ${ANA} (dst_evaluation1) for 10 s, caller ID +15005550006`);
    const missed = await evaluate({ route });
    expect(steps(missed)).toContain(`leg.skipped pstn ${BEN} (dst_evaluation3): disabled`);
    expect(taken(missed)).toEqual(['noanswer:route']);
    expect(missed).toMatchObject({ status: 'missed', outcome: 'missed', voicemail: false });
  });

  it('hangupAfterSecs ends the call when the caller hangs up; a voicemail left is kept short', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA, ringTimeoutSecs: 20, voicemailEnabled: true });
    const early = await evaluate({ numberId: n.phoneNumber, hangupAfterSecs: 8 });
    expect(early).toMatchObject({ status: 'missed', outcome: 'missed', voicemail: false });
    expect(early.trace.find((t: any) => t.step === 'hangup')).toMatchObject({ atSecs: 8 });
    const inVoicemail = await evaluate({ numberId: n.phoneNumber, hangupAfterSecs: 25 });
    expect(inVoicemail).toMatchObject({ status: 'missed', outcome: 'voicemail', voicemail: true });
    expect(taken(inVoicemail)).toEqual(['noanswer:route', 'voicemail']);
  });

  it('an inline route is checked as PUT checks it: 400 validation_error with every problem under body.route; nothing runs', async () => {
    const before = receiver.received.length;
    const bad = await svc.call('POST', '/v1/sandbox/calls/evaluate', {
      body: {
        route: {
          destinations: [{ destinationType: 'pstn', destination: 'sip:not-a-number@example.com' }],
          ivr: { enabled: true, greeting: { text: 'hi' }, keys: [{ digit: '1', action: { type: 'voicemail' } }, { digit: '1', action: { type: 'repeat' } }] },
        },
      },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details.map((d: any) => d.path)).toEqual([
      ['body', 'route', 'destinations', 0, 'destination'],
      ['body', 'route', 'ivr', 'keys', 1, 'digit'],
    ]);
    const shape = await svc.call('POST', '/v1/sandbox/calls/evaluate', { body: { route: { destinations: [{ destinationType: 'pstn', destination: ANA, stage: 9 }] } } });
    expect(shape.status).toBe(400);
    expect(shape.body.error.details[0].path).toEqual(['body', 'route', 'destinations', 0, 'stage']);
    const neither = await svc.call('POST', '/v1/sandbox/calls/evaluate', { body: { from: CALLER } });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details[0].path).toEqual(['body', 'numberId']);
    expect(receiver.received.length).toBe(before);
  });

  it("with numberId and route, the route runs and the number's saved route is not changed", async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA });
    const before = await svc.call('GET', `/v1/numbers/${n.id}/route`);
    const r = await evaluate({ numberId: n.id, route: ivrRoute(), decision: { timeout: true }, digits: ['2'] });
    expect(taken(r)).toEqual(['decision.failopen', 'ivr.key:2', 'voicemail']);
    const after = await svc.call('GET', `/v1/numbers/${n.id}/route`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('leaves no call, event, charge, stored row or outbound request behind, with a live key, whatever the call does', async () => {
    const n = await voiceNumber(svc, { ...ivrRoute(), recordCalls: true, liveTranscription: true });
    const before = await world();
    const answered = await evaluate({ numberId: n.id, decision: { status: 200, body: { action: 'continue' } }, digits: ['1'], answer: { Ana: 2 } });
    expect(steps(answered)).toContain('event call.completed');
    expect(steps(answered).some((s) => s.startsWith('transcript recording rec_evaluation1'))).toBe(true);
    // An Idempotency-Key (the CLI sends one on every POST) is checked, and no record of it is kept.
    const keys = await footprint(svc, svc.bootstrap.accountId);
    const keyed = await svc.call('POST', '/v1/sandbox/calls/evaluate', { body: { numberId: n.id, digits: ['2'] }, headers: { 'idempotency-key': 'evaluate-once' } });
    expect(keyed.status).toBe(200);
    expect(await footprint(svc, svc.bootstrap.accountId)).toEqual(keys);
    await evaluate({ numberId: n.id, decision: { status: 200, body: { action: 'forward', to: '+14155550144' } }, answer: { '+14155550144': 1 } });
    // Every stored row as it was: no call, voicemail, event, delivery, job, charge or idempotency record.
    expect(await world()).toEqual(before);
    // Nor anything scheduled to happen later: walking the clock sends nothing and makes no call.
    await svc.advanceJobs(600);
    await svc.flushWebhooks();
    expect(receiver.received.length).toBe(before.requests);
    expect((await count('/v1/calls?limit=100')).data.length).toBe(before.calls);
    expect((await count('/v1/events?limit=100')).data.length).toBe(before.events);
  });

  it('the same input gives the same answer', async () => {
    const n = await voiceNumber(svc, { ...ivrRoute(), recordCalls: true });
    const body = { numberId: n.id, decision: { status: 500 }, digits: ['', '1'], answer: { Ana: 3 }, hangupAfterSecs: 400 };
    const first = await evaluate(body);
    await svc.advanceJobs(3600);
    expect(await evaluate(body)).toEqual(first);
    expect(first.trace.some((t: any) => t.detail.includes('rec_evaluation1'))).toBe(true);
  });

  it("another account's number is not_found; a number needs voice; either key may evaluate", async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA });
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Other tenant' } });
    const other = await svc.call('POST', '/v1/sandbox/calls/evaluate', { body: { numberId: n.id }, headers: { 'service-subaccount': sub.body.id } });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    expect(await evaluate({ numberId: n.id }, svc.bootstrap.testKey)).toMatchObject({ status: 'missed' });
  });
});

describe('POST /v1/sandbox/calls/evaluate-batch', () => {
  const batch = (body: Record<string, unknown>, headers?: Record<string, string>) => svc.call('POST', '/v1/sandbox/calls/evaluate-batch', { body, headers });
  const blockedCaller = '+14155550178';
  /** Scripts that between them take every kind of branch, a blocked caller among them. */
  const scripts = (): Array<Record<string, unknown>> => [
    { from: blockedCaller },
    { decision: { status: 200, body: { action: 'reject' } } },
    { decision: { status: 200, body: { action: 'forward', to: '+14155550144' } }, answer: { '+14155550144': 3 } },
    { decision: { status: 200, body: { action: 'continue' } }, digits: ['1'], answer: { Ana: 5 } },
    { decision: { timeout: true }, digits: ['1'], answer: { [BEN]: 2, [ANA]: 9 } },
    { digits: ['9', '2'], hangupAfterSecs: 20 },
    { digits: ['', '1'], answer: { Ana: 1 } },
    {},
  ];

  it("answers each call exactly as /evaluate does, in order, for a number's saved route and for an inline route", async () => {
    const n = await voiceNumber(svc, { ...ivrRoute(), recordCalls: true });
    expect((await svc.call('POST', '/v1/blocked-numbers', { body: { phoneNumber: blockedCaller } })).status).toBe(201);
    for (const target of [{ numberId: n.id }, { route: ivrRoute() }, { numberId: n.phoneNumber, route: { destinations: [{ destinationType: 'pstn', destination: ANA }] } }]) {
      const calls = scripts();
      const res = await batch({ ...target, calls });
      expect(res.status, res.text).toBe(200);
      const singles = [];
      for (const call of calls) singles.push(await evaluate({ ...target, ...call }));
      expect(res.body).toEqual({ data: singles });
      // Reversed, each answer follows its call.
      const reversed = await batch({ ...target, calls: [...calls].reverse() });
      expect(reversed.body.data).toEqual([...singles].reverse());
    }
  });

  it('refuses 101 calls, an empty batch, and a bad call naming its index; a bad inline route once, under body.route', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA });
    const tooMany = await batch({ numberId: n.id, calls: Array.from({ length: 101 }, () => ({})) });
    expect(tooMany.status, tooMany.text).toBe(400);
    expect(tooMany.body.error.code).toBe('validation_error');
    expect(tooMany.body.error.details.map((d: any) => d.path)).toEqual([['body', 'calls']]);
    expect((await batch({ numberId: n.id, calls: Array.from({ length: 100 }, () => ({})) })).status).toBe(200);
    expect((await batch({ numberId: n.id, calls: [] })).status).toBe(400);
    const badCall = await batch({ numberId: n.id, calls: [{}, {}, { digits: ['12'] }, { from: 'nobody' }] });
    expect(badCall.status).toBe(400);
    expect(badCall.body.error.code).toBe('validation_error');
    expect(badCall.body.error.details.map((d: any) => d.path)).toEqual([
      ['body', 'calls', 2, 'digits', 0],
      ['body', 'calls', 3, 'from'],
    ]);
    const before = receiver.received.length;
    const badRoute = await batch({
      route: { destinations: [{ destinationType: 'pstn', destination: 'sip:not-a-number@example.com' }] },
      calls: [{}, { digits: ['1'] }, {}],
    });
    expect(badRoute.status, badRoute.text).toBe(400);
    expect(badRoute.body.error.code).toBe('validation_error');
    // Checked once for the batch: one problem, not one per call.
    expect(badRoute.body.error.details.map((d: any) => d.path)).toEqual([['body', 'route', 'destinations', 0, 'destination']]);
    const neither = await batch({ calls: [{}] });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details[0].path).toEqual(['body', 'numberId']);
    expect(receiver.received.length).toBe(before);
  });

  it("another account's number is not_found; one request counts once against the rate limit", async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA });
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Another tenant' } });
    const other = await batch({ numberId: n.id, calls: [{}, {}] }, { 'service-subaccount': sub.body.id });
    expect(other.status, other.text).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    const first = await batch({ numberId: n.id, calls: Array.from({ length: 50 }, () => ({})) });
    const second = await batch({ numberId: n.id, calls: Array.from({ length: 50 }, () => ({})) });
    expect(first.status).toBe(200);
    expect(second.body.data).toHaveLength(50);
    // 50 calls each, yet the bucket gave one request's worth between them (it refills meanwhile: at most a little).
    const spent = Number(first.headers['ratelimit-remaining']) - Number(second.headers['ratelimit-remaining']);
    expect(spent).toBeLessThanOrEqual(1);
  });

  it('leaves nothing behind, with an Idempotency-Key too', async () => {
    const n = await voiceNumber(svc, { ...ivrRoute(), recordCalls: true, liveTranscription: true });
    const before = await world();
    const keys = await footprint(svc, svc.bootstrap.accountId);
    const res = await batch({ numberId: n.id, calls: scripts() }, { 'idempotency-key': 'evaluate-batch-once' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.some((r: any) => r.trace.some((t: any) => t.detail.includes('rec_evaluation1')))).toBe(true);
    expect(await footprint(svc, svc.bootstrap.accountId)).toEqual(keys);
    // A retry is answered afresh, the same.
    expect((await batch({ numberId: n.id, calls: scripts() }, { 'idempotency-key': 'evaluate-batch-once' })).body).toEqual(res.body);
    expect(await world()).toEqual(before);
    await svc.advanceJobs(600);
    await svc.flushWebhooks();
    expect(receiver.received.length).toBe(before.requests);
    expect((await count('/v1/calls?limit=100')).data.length).toBe(before.calls);
    expect((await count('/v1/events?limit=100')).data.length).toBe(before.events);
  });
});

describe('PUT|GET /v1/sandbox/numbers/{id}/call-coverage', () => {
  it('keeps the last run per number and works out covered, total and percent', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA });
    const none = await svc.call('GET', `/v1/sandbox/numbers/${n.id}/call-coverage`);
    expect(none.status).toBe(404);
    const branches = [{ id: 'blocked', taken: false }, { id: `answer:${ANA}`, taken: true }, { id: 'noanswer:route', taken: true }];
    const put = await svc.call('PUT', `/v1/sandbox/numbers/${encodeURIComponent(n.phoneNumber)}/call-coverage`, { body: { source: 'file', tests: 3, passed: 2, branches }, key: svc.bootstrap.testKey });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ numberId: n.id, source: 'file', tests: 3, passed: 2, covered: 2, total: 3, percent: 66.6, branches });
    expect((await svc.call('GET', `/v1/sandbox/numbers/${n.id}/call-coverage`)).body).toEqual(put.body);
    const again = await svc.call('PUT', `/v1/sandbox/numbers/${n.id}/call-coverage`, { body: { source: 'saved', tests: 1, passed: 1, branches: branches.map((b) => ({ ...b, taken: true })) } });
    expect(again.body).toMatchObject({ source: 'saved', covered: 3, percent: 100 });
    expect((await svc.call('GET', `/v1/sandbox/numbers/${n.id}/call-coverage`)).body.source).toBe('saved');
  });

  it('refuses a run that passed more tests than it ran, or lists a branch twice, naming each', async () => {
    const n = await voiceNumber(svc, null);
    const res = await svc.call('PUT', `/v1/sandbox/numbers/${n.id}/call-coverage`, { body: { source: 'saved', tests: 1, passed: 2, branches: [{ id: 'blocked', taken: true }, { id: 'blocked', taken: false }] } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: any) => d.path)).toEqual([['body', 'passed'], ['body', 'branches', 1, 'id']]);
    expect((await svc.call('GET', `/v1/sandbox/numbers/${n.id}/call-coverage`)).status).toBe(404);
  });
});

// A call placed for real still runs as it did: the engine the evaluation shares is unchanged for it.
describe('the sandbox call beside it', () => {
  it('a sandbox call to the same IVR still rings, and is kept', async () => {
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: ANA });
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 2, durationSecs: 5 } });
    await svc.advanceJobs(30);
    expect((await svc.call('GET', `/v1/calls/${call.id}`)).body).toMatchObject({ status: 'completed', answeredBy: ANA, durationSeconds: 5 });
  });
});
