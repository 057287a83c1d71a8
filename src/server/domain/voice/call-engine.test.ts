import { describe, expect, it } from 'vitest';
import type { CallRoute, IvrAction, RouteDestination } from '../../../api/schemas/routes.js';
import { TRANSCRIPTION, VOICEMAIL_DEFAULT_SECS, callTranscriptDelaySecs } from '../../../api/values/calls.js';
import {
  NO_SCENARIO,
  resumeDecision,
  ringWaves,
  runDueSteps,
  runToEnd,
  startCall,
  stepCall,
  type CallEngineDeps,
  type CallEvent,
  type CallScenario,
  type CallState,
  type DecisionReply,
  type DecisionRequest,
  type DeviceInfo,
} from './call-engine.js';
import { SimulatedTranscriber } from '../../world/transcriber.js';

// The call engine on its own (contract §6, §9): a scenario of the outside world in, the trace and
// the events out. No database, no clock, no network: the deps are stubs.

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const CALLER = '+14155550100';
const NUMBER = '+14155550111';
const FWD = '+14155550199';

// --- builders --------------------------------------------------------------------------------------

let destSeq = 0;
function dest(o: Partial<RouteDestination> & Pick<RouteDestination, 'destinationType' | 'destination'>): RouteDestination {
  destSeq += 1;
  return { id: `dst_${destSeq}`, label: null, priority: destSeq, stage: 0, ringTimeoutSecs: 25, enabled: true, ...o };
}
const sip = (id: string, o: Partial<RouteDestination> = {}) => dest({ id, destinationType: 'sip', destination: `sip:${id}@pbx.example.com`, ...o });
const phone = (id: string, o: Partial<RouteDestination> = {}) => dest({ id, destinationType: 'pstn', destination: '+14155550123', ...o });
const device = (id: string, deviceId: string, o: Partial<RouteDestination> = {}) => dest({ id, destinationType: 'webrtc', destination: deviceId, ...o });

function route(o: Partial<CallRoute> = {}): CallRoute {
  const destinations = o.destinations ?? [sip('dst_a', { priority: 0 })];
  return {
    id: 'rte_1',
    destinationType: destinations[0]?.destinationType ?? null,
    destination: destinations[0]?.destination ?? null,
    ringTimeoutSecs: destinations[0]?.ringTimeoutSecs ?? 25,
    enabled: true,
    ringMode: 'simultaneous',
    callerIdMode: 'caller',
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
    ...o,
    destinations,
  };
}

const ivr = (o: Partial<NonNullable<CallRoute['ivr']>> = {}): NonNullable<CallRoute['ivr']> => ({
  enabled: true,
  greeting: { text: 'Press 1 for sales', audioUrl: null },
  digitTimeoutSecs: 5,
  invalidRetries: 1,
  keys: [{ digit: '1', label: 'Sales', action: { type: 'ring', ringMode: 'simultaneous', destinations: [sip('dst_sales', { priority: 0 })] } }],
  fallback: { type: 'voicemail' },
  ...o,
});

const DW = { enabled: true, url: 'https://hooks.example.com/decide', timeoutMs: 800 };

interface World {
  blocked?: Record<string, { id: string; autoSuggested: boolean }>;
  devices?: DeviceInfo[];
  decision?: DecisionReply | ((req: DecisionRequest) => DecisionReply);
}

function engine(w: World = {}) {
  const decisionCalls: Array<{ request: DecisionRequest; target: { url: string; timeoutMs: number } }> = [];
  let n = 0;
  const deps: CallEngineDeps = {
    blocklist: { find: async (_acct, phoneNumber) => w.blocked?.[phoneNumber] ?? null },
    devices: { find: async (_acct, id) => w.devices?.find((d) => d.id === id) ?? null },
    decisions: {
      decide: async (_acct, request, target) => {
        decisionCalls.push({ request, target });
        const d = w.decision ?? { kind: 'response', status: 200, body: {}, latencyMs: 10 };
        return typeof d === 'function' ? d(request) : d;
      },
    },
    transcriber: new SimulatedTranscriber(),
    newId: (prefix) => `${prefix}_${++n}`,
  };
  return { deps, decisionCalls };
}

function open(r: CallRoute | null, scenario: Partial<CallScenario> = {}): CallState {
  return startCall({ callId: 'call_1', accountId: 'acct_1', numberId: 'num_1', from: CALLER, to: NUMBER, startedAt: T0, route: r, scenario: { ...NO_SCENARIO, ...scenario } });
}

async function call(r: CallRoute | null, scenario: Partial<CallScenario> = {}, w: World = {}) {
  const e = engine(w);
  const { state, events } = await runToEnd(e.deps, open(r, scenario));
  return {
    state,
    events,
    decisionCalls: e.decisionCalls,
    /** The trace as `[seconds after the start, step]`. */
    steps: state.trace.map((t) => [(t.at - T0) / 1000, t.step] as const),
    names: state.trace.map((t) => t.step),
    details: state.trace.map((t) => `${t.step}: ${t.detail}`),
    types: events.map((ev) => ev.type),
  };
}

/** What the transcriber hears in voicemail vm_1 of the default length (it is deterministic). */
const VM_1 = new SimulatedTranscriber().transcribe({ recordingId: 'vm_1', kind: 'voicemail', from: CALLER, to: NUMBER, durationSecs: VOICEMAIL_DEFAULT_SECS, speakers: ['caller'] });
const VM_1_TRANSCRIPT = VM_1.status === 'available' ? VM_1.text : 'expected a transcript';

const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const online = (id: string, userId = 'usr_1'): DeviceInfo => ({ id, userId, presence: 'online', lastSeenAt: T0 - 10_000 });

// --- blocklist -------------------------------------------------------------------------------------

describe('blocklist (spec: Blocked number; contract §6)', () => {
  it('a confirmed entry rejects the call before anything rings, and the decision webhook is not asked', async () => {
    const c = await call(route({ decisionWebhook: DW }), { answer: { afterSecs: 1, durationSecs: 10 } }, { blocked: { [CALLER]: { id: 'blk_1', autoSuggested: false } } });
    expect(c.names).toEqual(['blocklist', 'ended']);
    expect(c.state.status).toBe('blocked');
    expect(c.events).toEqual([]);
    expect(c.decisionCalls).toEqual([]);
    expect(c.details[0]).toContain('blk_1');
  });

  it('an auto-suggested entry is not enforced: the call rings', async () => {
    const c = await call(route(), { answer: { afterSecs: 1, durationSecs: 10 } }, { blocked: { [CALLER]: { id: 'blk_1', autoSuggested: true } } });
    expect(c.state.status).toBe('completed');
    expect(c.details[0]).toMatch(/suggested.*not enforced/);
  });
});

// --- decision webhook ------------------------------------------------------------------------------

describe('decision webhook (spec: Routing decision request; contract §6)', () => {
  it('is sent once with numberId, callId, from, to, startedAt, to the route url with its timeout', async () => {
    const c = await call(route({ decisionWebhook: { ...DW, timeoutMs: 1200 } }), { answer: { afterSecs: 2, durationSecs: 5 } });
    expect(c.decisionCalls).toEqual([{ request: { numberId: 'num_1', callId: 'call_1', from: CALLER, to: NUMBER, startedAt: at(0) }, target: { url: DW.url, timeoutMs: 1200 } }]);
    expect(c.names.slice(0, 3)).toEqual(['blocklist', 'decision', 'leg.dialed']);
  });

  it('is not sent when disabled or absent', async () => {
    expect((await call(route({ decisionWebhook: { ...DW, enabled: false } }))).decisionCalls).toEqual([]);
    expect((await call(route())).decisionCalls).toEqual([]);
  });

  it('reject ends the call before anything rings', async () => {
    const c = await call(route({ decisionWebhook: DW }), { answer: { afterSecs: 1, durationSecs: 5 } }, { decision: { kind: 'response', status: 200, body: { action: 'reject' }, latencyMs: 40 } });
    expect(c.names).toEqual(['blocklist', 'decision', 'ended']);
    expect(c.state.status).toBe('blocked');
    expect(c.events).toEqual([]);
  });

  it('forward rings the given number instead of the route; the forwarded party answers', async () => {
    const c = await call(route({ decisionWebhook: DW }), { answer: { afterSecs: 3, durationSecs: 60 } }, { decision: { kind: 'response', status: 200, body: { action: 'forward', to: FWD }, latencyMs: 40 } });
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'decision'],
      [0, 'forward'],
      [3, 'answered'],
      [63, 'event'],
      [63, 'ended'],
    ]);
    expect(c.events).toEqual([{ type: 'call.completed', fields: expect.objectContaining({ answeredBy: FWD, answeredDevice: null, durationSeconds: 60, answeredAt: at(3), endedAt: at(63) }) }]);
  });

  const failOpen: Array<[string, DecisionReply, RegExp]> = [
    ['a timeout', { kind: 'failure', reason: 'timeout', detail: 'no answer in 800 ms', latencyMs: 800 }, /fail-open: timeout/],
    ['an answer later than timeoutMs', { kind: 'response', status: 200, body: { action: 'reject' }, latencyMs: 801 }, /fail-open: timeout/],
    ['a non-200 status', { kind: 'response', status: 500, body: { action: 'reject' }, latencyMs: 5 }, /fail-open: HTTP 500/],
    ['a 204', { kind: 'response', status: 204, body: null, latencyMs: 5 }, /fail-open: HTTP 204/],
    ['a body that is not an object', { kind: 'response', status: 200, body: 'reject', latencyMs: 5 }, /fail-open: malformed/],
    ['an action that is not a string', { kind: 'response', status: 200, body: { action: 1 }, latencyMs: 5 }, /fail-open: malformed/],
    ['forward without an E.164 to', { kind: 'response', status: 200, body: { action: 'forward', to: '555' }, latencyMs: 5 }, /fail-open: malformed/],
    ['a connection error', { kind: 'failure', reason: 'network', detail: 'ECONNREFUSED', latencyMs: 3 }, /fail-open: network/],
    ['no endpoint of the same origin (not sent)', { kind: 'failure', reason: 'not_sent', detail: 'no enabled webhook endpoint with origin https://hooks.example.com', latencyMs: 0 }, /fail-open: not sent/],
  ];
  it.each(failOpen)('fails open on %s: the normal route runs', async (_name, reply, why) => {
    const c = await call(route({ decisionWebhook: DW }), { answer: { afterSecs: 2, durationSecs: 5 } }, { decision: reply });
    expect(c.details[1]).toMatch(why);
    expect(c.names).toEqual(['blocklist', 'decision', 'leg.dialed', 'answered', 'event', 'ended']);
    expect(c.state.answeredBy).toBe('sip:dst_a@pbx.example.com');
    expect(c.decisionCalls).toHaveLength(1);
  });

  it('fails open when the client throws', async () => {
    const e = engine();
    e.deps.decisions.decide = async () => {
      throw new Error('boom');
    };
    const { state } = await runToEnd(e.deps, open(route({ decisionWebhook: DW })));
    expect(state.trace[1]!.detail).toMatch(/fail-open: network \(boom\)/);
    expect(state.trace.map((t) => t.step)).toContain('leg.dialed');
  });

  it('the runner stores "awaiting" before sending; a restart that finds it fails open and never sends again', async () => {
    const e = engine({ decision: { kind: 'response', status: 200, body: { action: 'reject' }, latencyMs: 5 } });
    let s = open(route({ decisionWebhook: DW }));
    s = (await stepCall(e.deps, s)).state; // blocklist
    const asked = await stepCall(e.deps, s);
    expect(asked.effect).toEqual({ kind: 'decide', accountId: 'acct_1', request: expect.objectContaining({ callId: 'call_1' }), target: { url: DW.url, timeoutMs: 800 } });
    expect(asked.state.phase).toEqual({ kind: 'decision.awaiting' });
    expect(e.decisionCalls).toEqual([]); // the engine itself never sends
    // The service stopped while waiting: the stored state comes back as JSON.
    const restarted = JSON.parse(JSON.stringify(asked.state)) as CallState;
    const { state } = await runToEnd(e.deps, restarted);
    expect(e.decisionCalls).toEqual([]);
    expect(state.trace.find((t) => t.step === 'decision')!.detail).toMatch(/interrupted.*not sent again/);
    expect(state.trace.map((t) => t.step)).toContain('leg.dialed');
    expect(() => resumeDecision(e.deps, state, { kind: 'response', status: 200, body: {}, latencyMs: 1 })).toThrow(/no decision awaited/);
  });

  it('any other action runs the normal route', async () => {
    const c = await call(route({ decisionWebhook: DW }), {}, { decision: { kind: 'response', status: 200, body: { action: 'continue' }, latencyMs: 5 } });
    expect(c.details[1]).toMatch(/"continue".*normal route/);
    expect(c.names).toContain('leg.dialed');
  });
});

// --- recording notice ------------------------------------------------------------------------------

describe('recording notice (spec: Call route)', () => {
  const notice = { text: 'This call may be recorded', audioUrl: null };
  it('is played before anything rings when recordCalls is on, and the answered call is recorded', async () => {
    const c = await call(route({ recordCalls: true, recordingNotice: notice }), { answer: { afterSecs: 1, durationSecs: 9 } });
    // The recorded call's call.transcript comes in a step after the end.
    expect(c.names).toEqual(['blocklist', 'notice', 'leg.dialed', 'answered', 'recording', 'event', 'ended', 'transcript', 'event']);
    expect(c.details[1]).toContain('played: text "This call may be recorded"');
    expect(c.state.recordingId).toBe('rec_1');
  });
  it('is not played when recordCalls is off (and nothing is recorded)', async () => {
    const c = await call(route({ recordingNotice: notice }), { answer: { afterSecs: 1, durationSecs: 9 } });
    expect(c.details[1]).toBe('notice: not played: recordCalls is off');
    expect(c.names).not.toContain('recording');
    expect(c.state.recordingId).toBeNull();
  });
});

// --- IVR -------------------------------------------------------------------------------------------

describe('IVR (spec: IVR object)', () => {
  it('a valid digit fires call.ivr.key_pressed before its ring action runs', async () => {
    const c = await call(route({ ivr: ivr() }), { digits: '1', answer: { destinationId: 'dst_sales', afterSecs: 4, durationSecs: 30 } });
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'ivr.prompt'],
      [0, 'ivr.key'],
      [0, 'event'],
      [0, 'leg.dialed'],
      [4, 'answered'],
      [34, 'event'],
      [34, 'ended'],
    ]);
    expect(c.events[0]).toEqual({ type: 'call.ivr.key_pressed', fields: { callId: 'call_1', numberId: 'num_1', digit: '1', label: 'Sales', from: CALLER, to: NUMBER, at: at(0) } });
    expect(c.details[4]).toContain('dst_sales');
    expect(c.types).toEqual(['call.ivr.key_pressed', 'call.completed']);
  });

  it('without a digit the prompt times out after digitTimeoutSecs and plays again; then the key works', async () => {
    // Digits are used one per prompt, so an invalid first digit then a valid one: invalid, replay, key.
    const c = await call(route({ ivr: ivr({ digitTimeoutSecs: 7 }) }), { digits: '91', answer: null });
    expect(c.names.slice(0, 6)).toEqual(['blocklist', 'ivr.prompt', 'ivr.invalid', 'ivr.prompt', 'ivr.key', 'event']);
    const t = await call(route({ ivr: ivr({ digitTimeoutSecs: 7, invalidRetries: 2 }) }), { digits: '' });
    expect(t.steps.filter(([, s]) => s.startsWith('ivr.'))).toEqual([
      [0, 'ivr.prompt'],
      [7, 'ivr.timeout'],
      [7, 'ivr.prompt'],
      [14, 'ivr.timeout'],
      [14, 'ivr.prompt'],
      [21, 'ivr.timeout'],
      [21, 'ivr.fallback'],
    ]);
  });

  it('invalid digits and timeouts never fire call.ivr.key_pressed; after invalidRetries the fallback (voicemail by default) runs', async () => {
    const c = await call(route({ ivr: ivr({ invalidRetries: 1 }) }), { digits: '9' });
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'ivr.prompt'],
      [0, 'ivr.invalid'],
      [0, 'ivr.prompt'],
      [5, 'ivr.timeout'],
      [5, 'ivr.fallback'],
      [5, 'voicemail'],
      [5 + VOICEMAIL_DEFAULT_SECS, 'event'],
      [5 + VOICEMAIL_DEFAULT_SECS, 'ended'],
      [5 + VOICEMAIL_DEFAULT_SECS, 'transcript'],
      [5 + VOICEMAIL_DEFAULT_SECS, 'event'],
    ]);
    expect(c.types).toEqual(['call.missed', 'voicemail.received']);
  });

  it('invalidRetries 0: the first failure goes straight to the fallback', async () => {
    const c = await call(route({ ivr: ivr({ invalidRetries: 0, fallback: { type: 'ring', ringMode: 'simultaneous', destinations: [sip('dst_ops', { priority: 0 })] } }) }), { digits: '#' });
    expect(c.names.slice(0, 5)).toEqual(['blocklist', 'ivr.prompt', 'ivr.invalid', 'ivr.fallback', 'leg.dialed']);
    expect(c.details[4]).toContain('dst_ops');
  });

  it('repeat plays the menu again without counting as a failure', async () => {
    const keys = [
      { digit: '*', label: 'Repeat', action: { type: 'repeat' } as IvrAction },
      { digit: '1', label: 'Sales', action: { type: 'voicemail' } as IvrAction },
    ];
    const c = await call(route({ ivr: ivr({ keys, invalidRetries: 0 }) }), { digits: '**1' });
    expect(c.names.slice(0, 11)).toEqual(['blocklist', 'ivr.prompt', 'ivr.key', 'event', 'ivr.prompt', 'ivr.key', 'event', 'ivr.prompt', 'ivr.key', 'event', 'voicemail']);
    expect(c.state.ivrFailures).toBe(0);
  });

  it('a repeat fallback does not loop: the no-answer action runs', async () => {
    const c = await call(route({ ivr: ivr({ invalidRetries: 0, fallback: { type: 'repeat' } }) }), {});
    expect(c.names).toEqual(['blocklist', 'ivr.prompt', 'ivr.timeout', 'ivr.fallback', 'ivr.fallback', 'ring.no_answer', 'event', 'ended']);
    expect(c.state.outcome).toBe('missed');
  });

  it('a disabled IVR is skipped: the route rings', async () => {
    const c = await call(route({ ivr: ivr({ enabled: false }) }), { digits: '1' });
    expect(c.names.slice(0, 2)).toEqual(['blocklist', 'leg.dialed']);
  });
});

// --- ring modes ------------------------------------------------------------------------------------

describe('ring set by ringMode (contract §6)', () => {
  it('simultaneous: every destination rings at once until the longest timeout, then the no-answer action', async () => {
    const c = await call(route({ destinations: [sip('a', { priority: 0, ringTimeoutSecs: 10 }), sip('b', { priority: 1, ringTimeoutSecs: 30 })] }));
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'leg.dialed'],
      [0, 'leg.dialed'],
      [30, 'ring.no_answer'],
      [30, 'ring.no_answer'],
      [30, 'event'],
      [30, 'ended'],
    ]);
    expect(c.events).toEqual([{ type: 'call.missed', fields: { callId: 'call_1', from: CALLER, to: NUMBER, outcome: 'missed', endedAt: at(30), direction: 'inbound' } }]);
  });

  it('simultaneous: a leg answers only within its own ring timeout', async () => {
    const dests = [sip('a', { priority: 0, ringTimeoutSecs: 10 }), sip('b', { priority: 1, ringTimeoutSecs: 30 })];
    expect((await call(route({ destinations: dests }), { answer: { destinationId: 'a', afterSecs: 12, durationSecs: 5 } })).state.status).toBe('missed');
    expect((await call(route({ destinations: dests }), { answer: { destinationId: 'b', afterSecs: 12, durationSecs: 5 } })).state.answeredBy).toBe('sip:b@pbx.example.com');
  });

  it('sequential: by priority (not array order), each for its own timeout', async () => {
    const c = await call(route({ ringMode: 'sequential', destinations: [sip('second', { priority: 1, ringTimeoutSecs: 20 }), sip('first', { priority: 0, ringTimeoutSecs: 10 })] }), {
      answer: { destinationId: 'second', afterSecs: 15, durationSecs: 5 },
    });
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'leg.dialed'],
      [10, 'ring.no_answer'],
      [10, 'leg.dialed'],
      [25, 'answered'],
      [30, 'event'],
      [30, 'ended'],
    ]);
    expect(c.details[1]).toContain('(first)');
    expect(c.details[3]).toContain('(second)');
  });

  it('sequential: nobody answers → every leg rings for its own timeout in turn', async () => {
    const c = await call(route({ ringMode: 'sequential', destinations: [sip('a', { priority: 0, ringTimeoutSecs: 5 }), sip('b', { priority: 1, ringTimeoutSecs: 40 })] }));
    expect(c.steps.filter(([, s]) => s === 'ring.no_answer').map(([t]) => t)).toEqual([5, 45, 45]);
  });

  it('staged: stage 0 rings as a wave, then stage 1; a stage waits for its longest leg', async () => {
    const dests = [sip('s1', { priority: 0, stage: 1, ringTimeoutSecs: 15 }), sip('s0a', { priority: 1, stage: 0, ringTimeoutSecs: 10 }), sip('s0b', { priority: 2, stage: 0, ringTimeoutSecs: 20 })];
    const c = await call(route({ ringMode: 'staged', destinations: dests }), { answer: { destinationId: 's1', afterSecs: 3, durationSecs: 1 } });
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'leg.dialed'],
      [0, 'leg.dialed'],
      [20, 'ring.no_answer'],
      [20, 'leg.dialed'],
      [23, 'answered'],
      [24, 'event'],
      [24, 'ended'],
    ]);
    expect(ringWaves({ mode: 'staged', destinations: dests, source: 'route' }).map((w) => w.map((d) => d.id))).toEqual([['s0a', 's0b'], ['s1']]);
  });

  it('an untargeted answer is taken by the first dialed leg that rings long enough', async () => {
    const c = await call(route({ ringMode: 'sequential', destinations: [sip('a', { priority: 0, ringTimeoutSecs: 5 }), sip('b', { priority: 1, ringTimeoutSecs: 25 })] }), { answer: { afterSecs: 8, durationSecs: 2 } });
    expect(c.state.answeredBy).toBe('sip:b@pbx.example.com');
    expect(c.state.answeredAt).toBe(T0 + 13_000);
  });
});

// --- legs: skipped, softphones ---------------------------------------------------------------------

describe('legs (contract §6: skipping; call.ringing once per dialed softphone leg)', () => {
  it('disabled destinations are skipped with the reason and never answer', async () => {
    const c = await call(route({ destinations: [sip('off', { priority: 0, enabled: false }), sip('on', { priority: 1 })] }), { answer: { destinationId: 'off', afterSecs: 1, durationSecs: 1 } });
    expect(c.details.slice(1, 3)).toEqual(['leg.skipped: sip sip:off@pbx.example.com (off): disabled', expect.stringMatching(/^leg.dialed: .*\(on\)/)]);
    expect(c.state.status).toBe('missed');
  });

  it('a sequential or staged wave with nothing to dial moves on at once', async () => {
    const c = await call(route({ ringMode: 'sequential', destinations: [sip('off', { priority: 0, enabled: false }), sip('on', { priority: 1 })] }), { answer: { afterSecs: 1, durationSecs: 1 } });
    expect(c.steps.slice(0, 4)).toEqual([
      [0, 'blocklist'],
      [0, 'leg.skipped'],
      [0, 'leg.dialed'],
      [1, 'answered'],
    ]);
  });

  it('call.ringing once per dialed softphone leg with its one device; none for SIP or PSTN; stale and unknown devices skipped', async () => {
    const devices: DeviceInfo[] = [
      online('dev_1', 'usr_1'),
      online('dev_2', 'usr_2'),
      { id: 'dev_stale', userId: 'usr_3', presence: 'online', lastSeenAt: T0 - 61_000 },
      { id: 'dev_off', userId: 'usr_4', presence: 'offline', lastSeenAt: T0 - 1_000 },
    ];
    const dests = [device('w1', 'dev_1'), device('w2', 'dev_2'), device('w3', 'dev_stale'), device('w4', 'dev_off'), device('w5', 'dev_gone'), sip('s'), phone('p')];
    const c = await call(route({ destinations: dests }), { answer: { deviceId: 'dev_2', afterSecs: 6, durationSecs: 20 } }, { devices });
    const ringing = c.events.filter((e) => e.type === 'call.ringing');
    expect(ringing).toEqual([
      { type: 'call.ringing', fields: { callId: 'call_1', from: CALLER, to: NUMBER, devices: [{ deviceId: 'dev_1', userId: 'usr_1' }] } },
      { type: 'call.ringing', fields: { callId: 'call_1', from: CALLER, to: NUMBER, devices: [{ deviceId: 'dev_2', userId: 'usr_2' }] } },
    ]);
    const skipped = c.details.filter((d) => d.startsWith('leg.skipped'));
    expect(skipped).toHaveLength(3);
    expect(skipped[0]).toMatch(/w3.*stale device/);
    expect(skipped[1]).toMatch(/w4.*stale device \(offline/);
    expect(skipped[2]).toMatch(/w5.*no such device/);
    expect(c.names.filter((s) => s === 'leg.dialed')).toHaveLength(4);
    expect(c.events.at(-1)).toEqual({ type: 'call.completed', fields: expect.objectContaining({ answeredBy: 'dev_2', answeredDevice: 'dev_2', durationSeconds: 20, direction: 'inbound' }) });
  });

  it('a device seen exactly 60 s ago is not stale yet', async () => {
    const c = await call(route({ destinations: [device('w', 'dev_1')] }), {}, { devices: [{ id: 'dev_1', userId: 'u', presence: 'online', lastSeenAt: T0 - 60_000 }] });
    expect(c.types[0]).toBe('call.ringing');
  });

  it('sequential softphones: call.ringing only as each leg is dialed', async () => {
    const c = await call(route({ ringMode: 'sequential', destinations: [device('w1', 'dev_1', { priority: 0, ringTimeoutSecs: 10 }), device('w2', 'dev_2', { priority: 1 })] }), {}, { devices: [online('dev_1'), online('dev_2')] });
    const ringAt = c.state.trace.filter((t) => t.step === 'event' && t.detail === 'call.ringing').map((t) => (t.at - T0) / 1000);
    expect(ringAt).toEqual([0, 10]);
  });
});

// --- not answered ----------------------------------------------------------------------------------

describe('not answered (spec: noAnswerAction)', () => {
  it('null with voicemail enabled: voicemail → call.missed outcome voicemail, then voicemail.received', async () => {
    const c = await call(route({ voicemailEnabled: true, voicemailGreeting: 'Leave a message' }));
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'leg.dialed'],
      [25, 'ring.no_answer'],
      [25, 'voicemail'],
      [25 + VOICEMAIL_DEFAULT_SECS, 'event'],
      [25 + VOICEMAIL_DEFAULT_SECS, 'ended'],
      [25 + VOICEMAIL_DEFAULT_SECS, 'transcript'],
      [25 + VOICEMAIL_DEFAULT_SECS, 'event'],
    ]);
    expect(c.details[3]).toContain('text "Leave a message"');
    expect(c.events).toEqual([
      { type: 'call.missed', fields: { callId: 'call_1', from: CALLER, to: NUMBER, outcome: 'voicemail', endedAt: at(25 + VOICEMAIL_DEFAULT_SECS), direction: 'inbound' } },
      {
        type: 'voicemail.received',
        fields: { callId: 'call_1', voicemailId: 'vm_1', from: CALLER, to: NUMBER, transcript: VM_1_TRANSCRIPT, transcriptStatus: 'available', durationSeconds: VOICEMAIL_DEFAULT_SECS, recordingUrl: '/v1/voicemails/vm_1/audio', receivedAt: at(25 + VOICEMAIL_DEFAULT_SECS) },
      },
    ]);
    expect(c.state).toMatchObject({ status: 'missed', outcome: 'voicemail', voicemailId: 'vm_1' });
  });

  it('the custom greeting audio is played instead of the text', async () => {
    const c = await call(route({ voicemailEnabled: true, voicemailGreeting: 'x', voicemailGreetingAudioUrl: 'http://127.0.0.1/media/g.mp3' }));
    expect(c.details.find((d) => d.startsWith('voicemail'))).toContain('audio http://127.0.0.1/media/g.mp3');
  });

  it('{type: voicemail} takes voicemail even when voicemailEnabled is off', async () => {
    const c = await call(route({ noAnswerAction: { type: 'voicemail' } }));
    expect(c.types).toEqual(['call.missed', 'voicemail.received']);
  });

  it('null without voicemail: the call rings out as missed', async () => {
    const c = await call(route());
    expect(c.types).toEqual(['call.missed']);
    expect(c.state).toMatchObject({ status: 'missed', outcome: 'missed', voicemailId: null, endedAt: T0 + 25_000 });
  });

  it('{type: forward}: the number rings after the ring set; answered there', async () => {
    const c = await call(route({ noAnswerAction: { type: 'forward', to: FWD }, voicemailEnabled: true }), { answer: { afterSecs: 4, durationSecs: 10 } });
    // The untargeted answer is taken by the route's leg first (it rings long enough)...
    expect(c.state.answeredBy).toBe('sip:dst_a@pbx.example.com');
    // ...one later than the leg's own timeout is taken by the forwarded number.
    const f = await call(route({ destinations: [sip('a', { priority: 0, ringTimeoutSecs: 5 })], noAnswerAction: { type: 'forward', to: FWD } }), { answer: { afterSecs: 6, durationSecs: 10 } });
    expect(f.steps).toEqual([
      [0, 'blocklist'],
      [0, 'leg.dialed'],
      [5, 'ring.no_answer'],
      [5, 'forward'],
      [11, 'answered'],
      [21, 'event'],
      [21, 'ended'],
    ]);
    expect(f.state.answeredBy).toBe(FWD);
  });

  it('{type: forward} not answered: missed (no voicemail of our own)', async () => {
    const c = await call(route({ destinations: [sip('a', { priority: 0, ringTimeoutSecs: 5 })], noAnswerAction: { type: 'forward', to: FWD }, voicemailEnabled: true }));
    expect(c.steps.slice(-4)).toEqual([
      [5, 'forward'],
      [30, 'ring.no_answer'],
      [30, 'event'],
      [30, 'ended'],
    ]);
    expect(c.types).toEqual(['call.missed']);
    expect(c.state.outcome).toBe('missed');
  });

  it('a machine picks up the forwarded leg and nobody presses 1: call.missed outcome voicemail, no voicemail.received', async () => {
    const c = await call(route({ destinations: [], noAnswerAction: { type: 'forward', to: FWD } }), { machine: true });
    expect(c.steps).toEqual([
      [0, 'blocklist'],
      [0, 'forward'],
      [25, 'machine'],
      [25 + VOICEMAIL_DEFAULT_SECS, 'event'],
      [25 + VOICEMAIL_DEFAULT_SECS, 'ended'],
    ]);
    expect(c.events).toEqual([{ type: 'call.missed', fields: expect.objectContaining({ outcome: 'voicemail' }) }]);
    expect(c.state.answeredAt).toBeNull();
  });

  it('a machine on a decision forward too', async () => {
    const c = await call(route({ decisionWebhook: DW }), { machine: true, answer: { afterSecs: 2, durationSecs: 5 } }, { decision: { kind: 'response', status: 200, body: { action: 'forward', to: FWD }, latencyMs: 1 } });
    expect(c.steps.filter(([, s]) => s === 'machine')).toEqual([[2, 'machine']]);
    expect(c.state).toMatchObject({ status: 'missed', outcome: 'voicemail' });
  });

  it('destinations: [] with voicemail is a voicemail-only number', async () => {
    const c = await call(route({ destinations: [], voicemailEnabled: true }));
    expect(c.steps.slice(0, 2)).toEqual([
      [0, 'blocklist'],
      [0, 'voicemail'],
    ]);
  });

  it('no route, or a disabled route: nothing rings, missed', async () => {
    const none = await call(null, { answer: { afterSecs: 1, durationSecs: 1 } });
    expect(none.names).toEqual(['blocklist', 'route', 'event', 'ended']);
    expect(none.types).toEqual(['call.missed']);
    const off = await call(route({ enabled: false, decisionWebhook: DW }));
    expect(off.details[1]).toBe('route: the route is disabled: nothing rings');
    expect(off.decisionCalls).toEqual([]);
  });
});

// --- the caller hangs up ---------------------------------------------------------------------------

describe('hang-up (contract §9: hangupAfterSecs)', () => {
  it('while ringing: missed at the hang-up', async () => {
    const c = await call(route(), { hangupAfterSecs: 7, answer: { afterSecs: 10, durationSecs: 5 } });
    expect(c.steps.slice(-4)).toEqual([
      [0, 'leg.dialed'],
      [7, 'hangup'],
      [7, 'event'],
      [7, 'ended'],
    ]);
    expect(c.state.outcome).toBe('missed');
  });

  it('while talking: completed, the duration cut short', async () => {
    const c = await call(route(), { hangupAfterSecs: 20, answer: { afterSecs: 5, durationSecs: 60 } });
    expect(c.events).toEqual([{ type: 'call.completed', fields: expect.objectContaining({ durationSeconds: 15, endedAt: at(20) }) }]);
  });

  it('while leaving a voicemail: the voicemail ends there', async () => {
    const c = await call(route({ voicemailEnabled: true }), { hangupAfterSecs: 33 });
    expect(c.types).toEqual(['call.missed', 'voicemail.received']);
    expect(c.events[1]!.fields).toMatchObject({ durationSeconds: 8 });
  });

  it('while a machine records a forwarded leg: still outcome voicemail', async () => {
    const c = await call(route({ destinations: [], noAnswerAction: { type: 'forward', to: FWD } }), { machine: true, hangupAfterSecs: 40 });
    expect(c.steps.slice(-4)).toEqual([
      [25, 'machine'],
      [40, 'hangup'],
      [40, 'event'],
      [40, 'ended'],
    ]);
    expect(c.events).toEqual([{ type: 'call.missed', fields: expect.objectContaining({ outcome: 'voicemail', endedAt: at(40) }) }]);
  });

  it('before a machine picks up a forwarded leg: missed', async () => {
    const c = await call(route({ destinations: [], noAnswerAction: { type: 'forward', to: FWD } }), { machine: true, hangupAfterSecs: 10 });
    expect(c.names).toEqual(['blocklist', 'forward', 'hangup', 'event', 'ended']);
    expect(c.state.outcome).toBe('missed');
  });

  it('during the IVR digit wait', async () => {
    const c = await call(route({ ivr: ivr() }), { hangupAfterSecs: 3 });
    expect(c.names).toEqual(['blocklist', 'ivr.prompt', 'hangup', 'event', 'ended']);
  });
});

// --- a step machine over the service clock ---------------------------------------------------------

describe('steps fall due on the service clock (durable: each step can be a scheduler job)', () => {
  const r = route({ ringMode: 'sequential', voicemailEnabled: true, destinations: [sip('a', { priority: 0, ringTimeoutSecs: 10 }), sip('b', { priority: 1, ringTimeoutSecs: 20 })] });

  it('runDueSteps stops at the next timeout and says when it falls due', async () => {
    const e = engine();
    const first = await runDueSteps(e.deps, open(r), T0);
    expect(first.state.dueAt).toBe(T0 + 10_000);
    expect(first.state.status).toBe('ringing');
    expect(first.events).toEqual([]);
    const second = await runDueSteps(e.deps, first.state, T0 + 9_999);
    expect(second.state).toEqual(first.state);
    const third = await runDueSteps(e.deps, first.state, T0 + 30_000);
    expect(third.state.dueAt).toBe(T0 + 30_000 + VOICEMAIL_DEFAULT_SECS * 1000);
    expect(third.state.trace.at(-1)!.step).toBe('voicemail');
  });

  it('a state stored as JSON between every step (a restart) ends the same as one run', async () => {
    const e1 = engine();
    const whole = await runToEnd(e1.deps, open(r, { answer: { destinationId: 'b', afterSecs: 5, durationSecs: 7 } }));
    const e2 = engine();
    let s = open(r, { answer: { destinationId: 'b', afterSecs: 5, durationSecs: 7 } });
    const events = [];
    let steps = 0;
    while (s.dueAt !== null) {
      const out = await stepCall(e2.deps, JSON.parse(JSON.stringify(s)) as CallState);
      events.push(...out.events);
      s = out.state;
      steps += 1;
    }
    expect(steps).toBeGreaterThan(3);
    expect(s).toEqual(whole.state);
    expect(events).toEqual(whole.events);
  });

  it('stepCall leaves the given state untouched and does nothing once ended', async () => {
    const e = engine();
    const s0 = open(r);
    const copy = structuredClone(s0);
    await stepCall(e.deps, s0);
    expect(s0).toEqual(copy);
    const done = (await runToEnd(e.deps, s0)).state;
    expect(done.dueAt).toBeNull();
    expect(await stepCall(e.deps, done)).toEqual({ state: done, events: [] });
  });
});

// --- the scenario table (every branch → expected events and trace) ----------------------------------

/**
 * One scenario: route + scenario + world → the events (type and key fields, in order) and the whole
 * trace as `step@seconds after the start`. `details` must each match some trace entry
 * (`step: detail`); `state` some fields of the final state.
 */
interface Row {
  name: string;
  route: CallRoute | null;
  scenario?: Partial<CallScenario>;
  world?: World;
  events: Array<[CallEvent['type'], Record<string, unknown>?]>;
  trace: string[];
  details?: RegExp[];
  state?: Partial<CallState>;
}

const NOTICE = { text: 'This call may be recorded', audioUrl: null };
const reply = (body: unknown, status = 200): DecisionReply => ({ kind: 'response', status, body, latencyMs: 20 });
const SALES = 'sip:dst_sales@pbx.example.com';
const DST_A = 'sip:dst_a@pbx.example.com';
const delay = (talkSecs: number) => callTranscriptDelaySecs(talkSecs);

const SCENARIOS: Row[] = [
  // blocklist
  {
    name: 'blocklist: a confirmed entry rejects before anything rings (no event, no decision request)',
    route: route({ decisionWebhook: DW }),
    scenario: { answer: { afterSecs: 1, durationSecs: 10 } },
    world: { blocked: { [CALLER]: { id: 'blk_1', autoSuggested: false } } },
    events: [],
    trace: ['blocklist@0', 'ended@0'],
    details: [/blocklist: .*blocked \(blk_1\)/, /ended: blocked/],
    state: { status: 'blocked' },
  },
  {
    name: 'blocklist: a suggested entry is not enforced',
    route: route(),
    scenario: { answer: { afterSecs: 1, durationSecs: 10 } },
    world: { blocked: { [CALLER]: { id: 'blk_1', autoSuggested: true } } },
    events: [['call.completed', { answeredBy: DST_A, durationSeconds: 10 }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'answered@1', 'event@11', 'ended@11'],
    details: [/suggested for blocking \(blk_1\): not enforced/],
    state: { status: 'completed' },
  },
  // decision webhook
  {
    name: 'decision: reject',
    route: route({ decisionWebhook: DW }),
    scenario: { answer: { afterSecs: 1, durationSecs: 10 } },
    world: { decision: reply({ action: 'reject' }) },
    events: [],
    trace: ['blocklist@0', 'decision@0', 'ended@0'],
    details: [/decision: reject in 20 ms/],
    state: { status: 'blocked' },
  },
  {
    name: 'decision: forward, answered there',
    route: route({ decisionWebhook: DW }),
    scenario: { answer: { afterSecs: 3, durationSecs: 10 } },
    world: { decision: reply({ action: 'forward', to: FWD }) },
    events: [['call.completed', { answeredBy: FWD, answeredDevice: null, durationSeconds: 10 }]],
    trace: ['blocklist@0', 'decision@0', 'forward@0', 'answered@3', 'event@13', 'ended@13'],
    details: [/decision: forward to \+14155550199/, /forward: to \+14155550199 \(the decision webhook\)/],
  },
  ...(
    [
      ['timeout', { kind: 'failure', reason: 'timeout', detail: 'no answer in 800 ms', latencyMs: 800 }, /decision: fail-open: timeout/],
      ['500', reply({ action: 'reject' }, 500), /decision: fail-open: HTTP 500/],
      ['malformed body', reply('reject'), /decision: fail-open: malformed/],
      ['not sent', { kind: 'failure', reason: 'not_sent', detail: 'no endpoint of the same origin', latencyMs: 0 }, /decision: fail-open: not sent/],
    ] as Array<[string, DecisionReply, RegExp]>
  ).map(
    ([what, decision, why]): Row => ({
      name: `decision: ${what} fails open, the normal route runs`,
      route: route({ decisionWebhook: DW }),
      scenario: { answer: { afterSecs: 2, durationSecs: 5 } },
      world: { decision },
      events: [['call.completed', { answeredBy: DST_A, durationSeconds: 5 }]],
      trace: ['blocklist@0', 'decision@0', 'leg.dialed@0', 'answered@2', 'event@7', 'ended@7'],
      details: [why],
    }),
  ),
  // recording notice, recordings and call.transcript
  {
    name: 'recording notice played; the recorded call gets call.transcript (available) after its end',
    route: route({ recordCalls: true, recordingNotice: NOTICE }),
    scenario: { answer: { afterSecs: 1, durationSecs: 30 } },
    events: [
      ['call.completed', { durationSeconds: 30 }],
      ['call.transcript', { callId: 'call_1', recordingId: 'rec_1', from: CALLER, to: NUMBER, transcriptStatus: 'available', durationSeconds: 30, recordingUrl: '/v1/calls/call_1/recording' }],
    ],
    trace: ['blocklist@0', 'notice@0', 'leg.dialed@0', 'answered@1', 'recording@1', 'event@31', 'ended@31', `transcript@${31 + delay(30)}`, `event@${31 + delay(30)}`],
    details: [/notice: played: text "This call may be recorded"/, /recording: recording rec_1/, /transcript: recording rec_1: available, 5 turns/],
    state: { status: 'completed', recordingId: 'rec_1', endedAt: T0 + 31_000, dueAt: null },
  },
  {
    name: 'recording notice not played without recordCalls; nothing recorded, no call.transcript',
    route: route({ recordingNotice: NOTICE }),
    scenario: { answer: { afterSecs: 1, durationSecs: 30 } },
    events: [['call.completed', {}]],
    trace: ['blocklist@0', 'notice@0', 'leg.dialed@0', 'answered@1', 'event@31', 'ended@31'],
    details: [/notice: not played: recordCalls is off/],
    state: { recordingId: null },
  },
  {
    name: 'recorded call of 1 s: call.transcript failed, still delivered',
    route: route({ recordCalls: true }),
    scenario: { answer: { afterSecs: 1, durationSecs: 1 } },
    events: [
      ['call.completed', { durationSeconds: 1 }],
      ['call.transcript', { recordingId: 'rec_1', transcript: null, transcriptTurns: [], transcriptStatus: 'failed', durationSeconds: 1, recordingUrl: '/v1/calls/call_1/recording' }],
    ],
    trace: ['blocklist@0', 'leg.dialed@0', 'answered@1', 'recording@1', 'event@2', 'ended@2', `transcript@${2 + delay(1)}`, `event@${2 + delay(1)}`],
    details: [/transcript: recording rec_1: failed/],
    state: { status: 'completed' },
  },
  // IVR
  {
    name: 'IVR: a valid digit fires call.ivr.key_pressed, then its ring set',
    route: route({ ivr: ivr() }),
    scenario: { digits: '1', answer: { destinationId: 'dst_sales', afterSecs: 4, durationSecs: 30 } },
    events: [['call.ivr.key_pressed', { digit: '1', label: 'Sales' }], ['call.completed', { answeredBy: SALES }]],
    trace: ['blocklist@0', 'ivr.prompt@0', 'ivr.key@0', 'event@0', 'leg.dialed@0', 'answered@4', 'event@34', 'ended@34'],
    details: [/ivr.key: 1 \(Sales\) → ring/],
  },
  {
    name: 'IVR: digit timeout, no retries left → fallback voicemail',
    route: route({ ivr: ivr({ invalidRetries: 0, digitTimeoutSecs: 8 }) }),
    events: [['call.missed', { outcome: 'voicemail' }], ['voicemail.received', { voicemailId: 'vm_1', transcriptStatus: 'available' }]],
    trace: ['blocklist@0', 'ivr.prompt@0', 'ivr.timeout@8', 'ivr.fallback@8', 'voicemail@8', `event@${8 + VOICEMAIL_DEFAULT_SECS}`, `ended@${8 + VOICEMAIL_DEFAULT_SECS}`, `transcript@${8 + VOICEMAIL_DEFAULT_SECS}`, `event@${8 + VOICEMAIL_DEFAULT_SECS}`],
    details: [/ivr.timeout: no digit within 8 s/, /ivr.fallback: 1 failed \(invalidRetries 0\) → voicemail/],
  },
  {
    name: 'IVR: invalid digits up to invalidRetries, then the fallback ring set (nobody answers, rings out)',
    route: route({ ivr: ivr({ invalidRetries: 1, fallback: { type: 'ring', ringMode: 'simultaneous', destinations: [sip('dst_fb', { ringTimeoutSecs: 12 })] } }) }),
    scenario: { digits: '98' },
    events: [['call.missed', { outcome: 'missed' }]],
    trace: ['blocklist@0', 'ivr.prompt@0', 'ivr.invalid@0', 'ivr.prompt@0', 'ivr.invalid@0', 'ivr.fallback@0', 'leg.dialed@0', 'ring.no_answer@12', 'ring.no_answer@12', 'event@12', 'ended@12'],
    details: [/ivr.invalid: 9 is not on the menu/, /ivr.invalid: 8 is not on the menu/, /ivr.fallback: 2 failed \(invalidRetries 1\) → ring/, /leg.dialed: .*\(dst_fb\)/],
  },
  {
    name: 'IVR: a `repeat` key plays the menu again (and fires the event; not a failure)',
    route: route({ ivr: ivr({ invalidRetries: 0, keys: [...ivr().keys, { digit: '0', label: 'Again', action: { type: 'repeat' } }] }) }),
    scenario: { digits: '01', answer: { destinationId: 'dst_sales', afterSecs: 2, durationSecs: 5 } },
    events: [['call.ivr.key_pressed', { digit: '0' }], ['call.ivr.key_pressed', { digit: '1' }], ['call.completed', { answeredBy: SALES }]],
    trace: ['blocklist@0', 'ivr.prompt@0', 'ivr.key@0', 'event@0', 'ivr.prompt@0', 'ivr.key@0', 'event@0', 'leg.dialed@0', 'answered@2', 'event@7', 'ended@7'],
    details: [/ivr.key: 0 \(Again\) → repeat/],
  },
  {
    name: 'IVR: `repeat` as the fallback would loop → the no-answer action runs',
    route: route({ ivr: ivr({ invalidRetries: 0, fallback: { type: 'repeat' } }) }),
    events: [['call.missed', { outcome: 'missed' }]],
    trace: ['blocklist@0', 'ivr.prompt@0', 'ivr.timeout@5', 'ivr.fallback@5', 'ivr.fallback@5', 'ring.no_answer@5', 'event@5', 'ended@5'],
    details: [/ivr.fallback: repeat as the fallback would loop/],
  },
  // ring modes
  {
    name: 'simultaneous: one wave of all, until the longest leg times out',
    route: route({ destinations: [sip('a', { ringTimeoutSecs: 25 }), sip('b', { ringTimeoutSecs: 10 })] }),
    events: [['call.missed', { outcome: 'missed', endedAt: at(25) }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'leg.dialed@0', 'ring.no_answer@25', 'ring.no_answer@25', 'event@25', 'ended@25'],
  },
  {
    name: 'sequential: by priority, each for its own timeout',
    route: route({ ringMode: 'sequential', destinations: [sip('late', { priority: 5, ringTimeoutSecs: 5 }), sip('first', { priority: 1, ringTimeoutSecs: 10 })] }),
    scenario: { answer: { destinationId: 'late', afterSecs: 3, durationSecs: 4 } },
    events: [['call.completed', { answeredBy: 'sip:late@pbx.example.com', answeredAt: at(13), durationSeconds: 4 }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'ring.no_answer@10', 'leg.dialed@10', 'answered@13', 'event@17', 'ended@17'],
    details: [/leg.dialed: .*\(first\) for 10 s/, /leg.dialed: .*\(late\) for 5 s/, /ring.no_answer: ring set sequential wave 1 of 2/],
  },
  {
    name: 'staged: stage 0 as a wave (its longest leg), then stage 1',
    route: route({ ringMode: 'staged', destinations: [sip('s1', { priority: 0, stage: 1, ringTimeoutSecs: 15 }), sip('s0a', { priority: 1, ringTimeoutSecs: 10 }), sip('s0b', { priority: 2, ringTimeoutSecs: 20 })] }),
    events: [['call.missed', { outcome: 'missed', endedAt: at(35) }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'leg.dialed@0', 'ring.no_answer@20', 'leg.dialed@20', 'ring.no_answer@35', 'ring.no_answer@35', 'event@35', 'ended@35'],
    details: [/ring.no_answer: ring set staged wave 1 of 2/, /ring.no_answer: ring set staged wave 2 of 2/],
  },
  // legs
  {
    name: 'a disabled destination and a stale device are skipped; the live device rings and answers',
    route: route({ destinations: [sip('off', { enabled: false }), device('w_stale', 'dev_stale'), device('w_1', 'dev_1')] }),
    scenario: { answer: { deviceId: 'dev_1', afterSecs: 2, durationSecs: 10 } },
    world: { devices: [{ id: 'dev_stale', userId: 'usr_9', presence: 'online', lastSeenAt: T0 - 61_000 }, online('dev_1', 'usr_1')] },
    events: [
      ['call.ringing', { from: CALLER, to: NUMBER, devices: [{ deviceId: 'dev_1', userId: 'usr_1' }] }],
      ['call.completed', { answeredBy: 'dev_1', answeredDevice: 'dev_1', durationSeconds: 10 }],
    ],
    trace: ['blocklist@0', 'leg.skipped@0', 'leg.skipped@0', 'leg.dialed@0', 'event@0', 'answered@2', 'event@12', 'ended@12'],
    details: [/leg.skipped: .*\(off\): disabled/, /leg.skipped: .*\(w_stale\): stale device/],
  },
  {
    name: 'call.ringing once per dialed device leg, none for a SIP leg',
    route: route({ destinations: [device('w_1', 'dev_1'), sip('desk'), device('w_2', 'dev_2')] }),
    world: { devices: [online('dev_1', 'usr_1'), online('dev_2', 'usr_2')] },
    events: [
      ['call.ringing', { devices: [{ deviceId: 'dev_1', userId: 'usr_1' }] }],
      ['call.ringing', { devices: [{ deviceId: 'dev_2', userId: 'usr_2' }] }],
      ['call.missed', { outcome: 'missed' }],
    ],
    trace: ['blocklist@0', 'leg.dialed@0', 'event@0', 'leg.dialed@0', 'leg.dialed@0', 'event@0', 'ring.no_answer@25', 'ring.no_answer@25', 'event@25', 'ended@25'],
  },
  // not answered: noAnswerAction
  {
    name: 'noAnswerAction voicemail: call.missed (voicemail), then voicemail.received with its transcript',
    route: route({ noAnswerAction: { type: 'voicemail' } }),
    events: [
      ['call.missed', { outcome: 'voicemail', endedAt: at(25 + VOICEMAIL_DEFAULT_SECS) }],
      ['voicemail.received', { voicemailId: 'vm_1', transcript: VM_1_TRANSCRIPT, transcriptStatus: 'available', durationSeconds: VOICEMAIL_DEFAULT_SECS, recordingUrl: '/v1/voicemails/vm_1/audio' }],
    ],
    trace: ['blocklist@0', 'leg.dialed@0', 'ring.no_answer@25', 'voicemail@25', `event@${25 + VOICEMAIL_DEFAULT_SECS}`, `ended@${25 + VOICEMAIL_DEFAULT_SECS}`, `transcript@${25 + VOICEMAIL_DEFAULT_SECS}`, `event@${25 + VOICEMAIL_DEFAULT_SECS}`],
    details: [/transcript: voicemail vm_1: available/],
    state: { status: 'missed', outcome: 'voicemail', voicemailId: 'vm_1' },
  },
  {
    name: 'voicemail hung up after 1 s: transcript failed, still delivered (transcript null)',
    route: route({ destinations: [], voicemailEnabled: true }),
    scenario: { hangupAfterSecs: 1 },
    events: [
      ['call.missed', { outcome: 'voicemail' }],
      ['voicemail.received', { voicemailId: 'vm_1', transcript: null, transcriptStatus: 'failed', durationSeconds: 1, recordingUrl: '/v1/voicemails/vm_1/audio' }],
    ],
    trace: ['blocklist@0', 'voicemail@0', 'hangup@1', 'event@1', 'ended@1', 'transcript@1', 'event@1'],
    details: [/transcript: voicemail vm_1: failed/],
  },
  {
    name: 'noAnswerAction forward: the number rings after the ring set and answers',
    route: route({ destinations: [sip('a', { ringTimeoutSecs: 5 })], noAnswerAction: { type: 'forward', to: FWD } }),
    scenario: { answer: { afterSecs: 6, durationSecs: 10 } },
    events: [['call.completed', { answeredBy: FWD, answeredAt: at(11) }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'ring.no_answer@5', 'forward@5', 'answered@11', 'event@21', 'ended@21'],
    details: [/forward: to \+14155550199 \(noAnswerAction\)/],
  },
  {
    name: 'noAnswerAction null without voicemail: the call rings out',
    route: route(),
    events: [['call.missed', { outcome: 'missed' }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'ring.no_answer@25', 'ring.no_answer@25', 'event@25', 'ended@25'],
    details: [/no voicemail: the call rings out/],
  },
  {
    name: 'noAnswerAction null with voicemail enabled: voicemail',
    route: route({ voicemailEnabled: true }),
    events: [['call.missed', { outcome: 'voicemail' }], ['voicemail.received', { transcriptStatus: 'available' }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'ring.no_answer@25', 'voicemail@25', `event@${25 + VOICEMAIL_DEFAULT_SECS}`, `ended@${25 + VOICEMAIL_DEFAULT_SECS}`, `transcript@${25 + VOICEMAIL_DEFAULT_SECS}`, `event@${25 + VOICEMAIL_DEFAULT_SECS}`],
  },
  {
    name: 'a machine picks up the forwarded leg, nobody presses 1: outcome voicemail, no voicemail.received',
    route: route({ destinations: [], noAnswerAction: { type: 'forward', to: FWD } }),
    scenario: { machine: true },
    events: [['call.missed', { outcome: 'voicemail' }]],
    trace: ['blocklist@0', 'forward@0', 'machine@25', `event@${25 + VOICEMAIL_DEFAULT_SECS}`, `ended@${25 + VOICEMAIL_DEFAULT_SECS}`],
    details: [/machine: a machine picked up \+14155550199/],
    state: { answeredAt: null, voicemailId: null },
  },
  // live transcription (12 s of talk: two turns of 6 s, an interim half-way and a final at each end)
  {
    name: 'liveTranscription: interim then final call.transcript.delta per turn, speakers alternating, then call.completed',
    route: route({ liveTranscription: true }),
    scenario: { answer: { afterSecs: 1, durationSecs: 12 } },
    events: [
      ['call.transcript.delta', { callId: 'call_1', speaker: 'caller', final: false, at: at(4) }],
      ['call.transcript.delta', { callId: 'call_1', speaker: 'caller', final: true, at: at(7) }],
      ['call.transcript.delta', { callId: 'call_1', speaker: 'agent', final: false, at: at(10) }],
      ['call.transcript.delta', { callId: 'call_1', speaker: 'agent', final: true, at: at(13) }],
      ['call.completed', { durationSeconds: 12 }],
    ],
    trace: ['blocklist@0', 'leg.dialed@0', 'answered@1', 'transcript.live@1', 'event@4', 'event@7', 'event@10', 'event@13', 'event@13', 'ended@13'],
    details: [/transcript.live: 2 turns over 12 s/],
  },
  {
    name: 'liveTranscription: the caller hangs up mid-stream; the stream stops there',
    route: route({ liveTranscription: true }),
    scenario: { answer: { afterSecs: 1, durationSecs: 60 }, hangupAfterSecs: 20 },
    events: [
      ['call.transcript.delta', { speaker: 'caller', final: false }],
      ['call.transcript.delta', { speaker: 'caller', final: true }],
      ['call.transcript.delta', { speaker: 'agent', final: false }],
      ['call.transcript.delta', { speaker: 'agent', final: true }],
      ['call.transcript.delta', { speaker: 'caller', final: false }],
      ['call.transcript.delta', { speaker: 'caller', final: true, at: at(19) }],
      ['call.completed', { durationSeconds: 19, endedAt: at(20) }],
    ],
    trace: ['blocklist@0', 'leg.dialed@0', 'answered@1', 'transcript.live@1', 'event@4', 'event@7', 'event@10', 'event@13', 'event@16', 'event@19', 'hangup@20', 'event@20', 'ended@20'],
  },
  {
    name: 'liveTranscription on a 1 s call: no speech, no deltas',
    route: route({ liveTranscription: true }),
    scenario: { answer: { afterSecs: 1, durationSecs: 1 } },
    events: [['call.completed', { durationSeconds: 1 }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'answered@1', 'transcript.live@1', 'event@2', 'ended@2'],
    details: [/transcript.live: no live transcript/],
  },
  // callerIdMode
  {
    name: 'callerIdMode caller: the legs show the original caller; call.ringing from the caller',
    route: route({ callerIdMode: 'caller', destinations: [device('w_1', 'dev_1'), sip('desk')] }),
    world: { devices: [online('dev_1')] },
    events: [['call.ringing', { from: CALLER, to: NUMBER }], ['call.missed', {}]],
    trace: ['blocklist@0', 'leg.dialed@0', 'event@0', 'leg.dialed@0', 'ring.no_answer@25', 'ring.no_answer@25', 'event@25', 'ended@25'],
    details: [/leg.dialed: webrtc dev_1 \(w_1\) for 25 s, caller ID \+14155550100$/, /leg.dialed: sip .*\(desk\) for 25 s, caller ID \+14155550100$/],
  },
  {
    name: 'callerIdMode business: the legs and the forward show the number called; call.ringing still from the caller',
    route: route({ callerIdMode: 'business', destinations: [device('w_1', 'dev_1', { ringTimeoutSecs: 5 })], noAnswerAction: { type: 'forward', to: FWD } }),
    world: { devices: [online('dev_1')] },
    events: [['call.ringing', { from: CALLER, to: NUMBER }], ['call.missed', { outcome: 'missed' }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'event@0', 'ring.no_answer@5', 'forward@5', 'ring.no_answer@30', 'event@30', 'ended@30'],
    details: [/leg.dialed: webrtc dev_1 \(w_1\) for 5 s, caller ID \+14155550111$/, /forward: .*caller ID \+14155550111$/],
  },
  // the caller hangs up
  {
    name: 'the caller hangs up while it rings: missed',
    route: route(),
    scenario: { hangupAfterSecs: 7, answer: { afterSecs: 10, durationSecs: 5 } },
    events: [['call.missed', { outcome: 'missed', endedAt: at(7) }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'hangup@7', 'event@7', 'ended@7'],
  },
  {
    name: 'the caller hangs up while a recorded call talks: completed, then call.transcript of the talk',
    route: route({ recordCalls: true }),
    scenario: { hangupAfterSecs: 20, answer: { afterSecs: 5, durationSecs: 60 } },
    events: [['call.completed', { durationSeconds: 15, endedAt: at(20) }], ['call.transcript', { transcriptStatus: 'available', durationSeconds: 15 }]],
    trace: ['blocklist@0', 'leg.dialed@0', 'answered@5', 'recording@5', 'hangup@20', 'event@20', 'ended@20', `transcript@${20 + delay(15)}`, `event@${20 + delay(15)}`],
  },
];

describe('the scenario table (every branch: route + scenario + world → events and trace)', () => {
  it('covers at least 30 scenarios, each named once', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(SCENARIOS.map((r) => r.name)).size).toBe(SCENARIOS.length);
  });

  it.each(SCENARIOS.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const c = await call(row.route, row.scenario, row.world);
    expect(c.state.trace.length).toBeGreaterThan(0);
    expect(c.state.trace.map((t) => `${t.step}@${(t.at - T0) / 1000}`)).toEqual(row.trace);
    expect(c.events.map((e) => e.type)).toEqual(row.events.map(([type]) => type));
    row.events.forEach(([type, fields], i) => expect(c.events[i]).toEqual({ type, fields: expect.objectContaining(fields ?? {}) }));
    // The trace's `event` entries name the events, in the order they were emitted.
    expect(c.state.trace.filter((t) => t.step === 'event').map((t) => t.detail)).toEqual(row.events.map(([type]) => type));
    for (const d of row.details ?? []) expect(c.details.some((line) => d.test(line)), `no trace entry matches ${d}:\n${c.details.join('\n')}`).toBe(true);
    if (row.state) expect(c.state).toMatchObject(row.state);
    // Every call runs to its end: nothing more due, a final status.
    expect(c.state.dueAt).toBeNull();
    expect(['completed', 'missed', 'blocked']).toContain(c.state.status);
  });
});

// --- transcription and caller ID in detail ---------------------------------------------------------

describe('transcription (spec: call.transcript, call.transcript.delta, voicemail.received)', () => {
  it('a recorded call is final before its transcript step: status completed, endedAt set, the transcript step still due', async () => {
    const e = engine();
    const s = open(route({ recordCalls: true }), { answer: { afterSecs: 2, durationSecs: 600 } });
    const ended = await runDueSteps(e.deps, s, T0 + 602_000);
    expect(ended.events.map((ev) => ev.type)).toEqual(['call.completed']);
    expect(ended.state).toMatchObject({ status: 'completed', endedAt: T0 + 602_000, phase: { kind: 'transcript' } });
    // 10 minutes of recording: 10 s + 10 s per started minute.
    expect(callTranscriptDelaySecs(600)).toBe(110);
    expect(ended.state.dueAt).toBe(T0 + (602 + 110) * 1000);
    // Stored as JSON (a restart), the transcript step runs once and the call is done.
    const after = await runDueSteps(e.deps, JSON.parse(JSON.stringify(ended.state)) as CallState, T0 + 10_000_000);
    expect(after.events.map((ev) => ev.type)).toEqual(['call.transcript']);
    expect(after.state).toMatchObject({ status: 'completed', phase: { kind: 'done' }, dueAt: null });
    expect((await stepCall(e.deps, after.state)).events).toEqual([]);
  });

  it('the delay is capped for long calls', () => {
    expect(callTranscriptDelaySecs(0)).toBe(10);
    expect(callTranscriptDelaySecs(60)).toBe(20);
    expect(callTranscriptDelaySecs(61)).toBe(30);
    expect(callTranscriptDelaySecs(86_400)).toBe(300);
  });

  it('call.transcript text and turns come from the transcriber; a live stream of the same recorded call agrees with it', async () => {
    const c = await call(route({ recordCalls: true, liveTranscription: true }), { answer: { afterSecs: 1, durationSecs: 40 } });
    const transcript = c.events.find((e) => e.type === 'call.transcript')!.fields;
    const turns = transcript.transcriptTurns as Array<{ speaker: string; text: string }>;
    expect(turns.length).toBe(6);
    expect(transcript.transcript).toBe(turns.map((t) => `${t.speaker}: ${t.text}`).join('\n'));
    const finals = c.events.filter((e) => e.type === 'call.transcript.delta' && e.fields.final === true).map((e) => ({ speaker: e.fields.speaker, text: e.fields.text }));
    expect(finals).toEqual(turns);
    // Each interim is the start of the final that supersedes it, from the same speaker.
    const deltas = c.events.filter((e) => e.type === 'call.transcript.delta');
    expect(deltas.length).toBe(12);
    for (let i = 0; i < deltas.length; i += 2) {
      const [interim, final] = [deltas[i]!.fields, deltas[i + 1]!.fields];
      expect(interim.final).toBe(false);
      expect(interim.speaker).toBe(final.speaker);
      expect((final.text as string).startsWith(interim.text as string)).toBe(true);
      expect((interim.text as string).length).toBeLessThan((final.text as string).length);
    }
    // Deltas come while bridged: after the answer, by the end of the talk.
    const times = deltas.map((d) => Date.parse(d.fields.at as string));
    expect(Math.min(...times)).toBeGreaterThan(c.state.answeredAt!);
    expect(Math.max(...times)).toBe(c.state.endedAt);
  });

  it('a long live call is capped at 2 × maxTurns delta steps', async () => {
    const c = await call(route({ liveTranscription: true }), { answer: { afterSecs: 1, durationSecs: 4 * 3600 } });
    expect(c.types.filter((t) => t === 'call.transcript.delta')).toHaveLength(2 * TRANSCRIPTION.maxTurns);
    expect(c.types.at(-1)).toBe('call.completed');
  });

  it('no live deltas without liveTranscription, and none for a call that is not answered', async () => {
    expect((await call(route(), { answer: { afterSecs: 1, durationSecs: 60 } })).types).toEqual(['call.completed']);
    expect((await call(route({ liveTranscription: true, voicemailEnabled: true }))).types).toEqual(['call.missed', 'voicemail.received']);
  });

  it('a forwarded call that is answered is recorded and transcribed too', async () => {
    const c = await call(route({ recordCalls: true, decisionWebhook: DW }), { answer: { afterSecs: 2, durationSecs: 20 } }, { decision: { kind: 'response', status: 200, body: { action: 'forward', to: FWD }, latencyMs: 5 } });
    expect(c.types).toEqual(['call.completed', 'call.transcript']);
  });
});

describe('callerIdMode on the legs (spec: Call route)', () => {
  it('each dialed leg carries the caller ID of the mode', async () => {
    for (const [mode, shown] of [['caller', CALLER], ['business', NUMBER]] as const) {
      const e = engine();
      const first = await runDueSteps(e.deps, open(route({ callerIdMode: mode }), { answer: { afterSecs: 3, durationSecs: 5 } }), T0);
      expect(first.state.phase).toMatchObject({ kind: 'answered', leg: { destinationId: 'dst_a', callerId: shown } });
    }
  });
});
