import type { CallRoute, IvrAction, RingMode, RouteDestination } from '../../../api/schemas/routes.js';
import { ROUTE_LIMITS } from '../../../api/values/routes.js';
import { E164_PATTERN } from '../../../api/schemas/common.js';
import {
  DEVICE_STALE_AFTER_SECS,
  TRANSCRIPT_SPEAKERS,
  VOICEMAIL_DEFAULT_SECS,
  callRecordingPath,
  callTranscriptDelaySecs,
  voicemailAudioPath,
  type CallMissedOutcome,
  type CallStatus,
  type CallTraceStep,
} from '../../../api/values/calls.js';
import type { Transcriber, TranscriptTurn } from '../../world/transcriber.js';

// contract §6 (the call engine paragraph, the routing decision request, the call trace), §9 (sandbox
// call scenarios); spec: Call route, IVR object, Routing decision request, Event catalog (`call.*`,
// `voicemail.received`), Delivery (non-durable `call.transcript.delta`), Limits.
//
// A pure step machine over the service clock. `startCall` builds the state of a new inbound call;
// `stepCall` runs the one step that is due (at `state.dueAt`) and returns the next state, the
// events to emit and, in `dueAt`, when the next step falls due (null: nothing more to do). Nothing
// here reads a clock, a database or the network: the outside world comes in through `CallEngineDeps`
// (blocklist, softphone devices, the decision webhook client, the transcriber, ids), and the time of
// a step is the time it fell due. So a scheduler job can run each step (a restart resumes from the
// stored state) and a clock advance walks a call through its timeouts; `runDueSteps` runs every step
// due by a time. `stepCall` is synchronous: the one network act, the decision webhook, is returned as
// an `effect` for the runner (store the state, send once, `resumeDecision` with the reply).
//
// Transcription (world/transcriber.ts, deterministic): a voicemail is transcribed as it ends
// (`voicemail.received` available or failed, after `call.missed`); a recorded call gets one more
// step AFTER its end — phase `transcript`, due `callTranscriptDelaySecs` after `endedAt`, status
// already final — which emits `call.transcript` once (a runner keeps stepping while `dueAt` is not
// null, even after `endedAt` is set); a `liveTranscription` route adds `live` steps during the talk
// time (interim then final `call.transcript.delta` per turn, at most 2 × TRANSCRIPTION.maxTurns).
// Every dialed leg and forward carries the caller ID of the route's `callerIdMode` (`Leg.callerId`,
// in the trace); events keep `from` = the original caller.

// --- the outside world, as the engine sees it ------------------------------------------------------

/** contract §9: the sandbox call scenario — what the outside world does during the call. */
export interface CallScenario {
  /**
   * Who answers and when: `afterSecs` of ringing on the answering leg, then `durationSecs` talking.
   * `destinationId` or `deviceId` name the leg; with neither, the first dialed leg (or a forwarded
   * leg) that rings long enough answers. Null: nobody answers.
   */
  answer: { destinationId?: string; deviceId?: string; afterSecs: number; durationSecs: number } | null;
  /** IVR digits the caller presses, one per menu prompt, in order (`""`: none; each prompt then times out). */
  digits: string;
  /** contract §6: a machine picks up a forwarded leg and nobody presses 1 → outcome `voicemail`. */
  machine: boolean;
  /** The caller hangs up this many seconds after the call started (null: never). */
  hangupAfterSecs: number | null;
  /**
   * Call evaluation (contract §6): everyone who may pick up, each naming a leg by its destination
   * (E.164, SIP URI or device id) or its label, after `afterSecs` of ringing, then talking
   * `durationSecs`; a leg nobody names rings out. Given, it stands in for `answer`.
   */
  pickups?: Pickup[];
  /**
   * Call evaluation (contract §6): the key the caller presses at each menu prompt, in order; `""`
   * stays silent (that prompt times out). Given, it stands in for `digits`.
   */
  presses?: string[];
}

/** Call evaluation: one party who picks up when a leg that names it rings long enough. */
export interface Pickup {
  who: string;
  afterSecs: number;
  durationSecs: number;
}

export const NO_SCENARIO: CallScenario = { answer: null, digits: '', machine: false, hangupAfterSecs: null };

/** An entry of the account's blocklist that matches the caller (spec: Blocked number). */
export interface BlockEntry {
  id: string;
  autoSuggested: boolean;
}

/** What the engine reads of the blocklist (the blocked-numbers repository implements it). */
export interface BlocklistLookup {
  find(accountId: string, phoneNumber: string): Promise<BlockEntry | null>;
}

/** A softphone device as a ring wave sees it (contract §6: Softphone). */
export interface DeviceInfo {
  id: string;
  userId: string;
  presence: 'online' | 'offline';
  /** Service-clock ms of the last heartbeat, or null when none. */
  lastSeenAt: number | null;
}

export interface DeviceLookup {
  find(accountId: string, deviceId: string): Promise<DeviceInfo | null>;
}

/** spec: Routing decision request — body fields `numberId, callId, from, to, startedAt`. */
export interface DecisionRequest {
  numberId: string;
  callId: string;
  from: string;
  to: string;
  startedAt: string;
}

/**
 * What one attempt of the decision webhook came to. The client signs and POSTs once (contract §6),
 * gives up at `timeoutMs`, and reports either the response or why there was none (`not_sent`: no
 * enabled endpoint of the same origin, or the URL fails the safety rules of §10).
 */
export type DecisionReply =
  | { kind: 'response'; status: number; body: unknown; latencyMs: number }
  | { kind: 'failure'; reason: 'timeout' | 'network' | 'not_sent'; detail: string; latencyMs: number };

export interface DecisionClient {
  decide(accountId: string, request: DecisionRequest, target: { url: string; timeoutMs: number }): Promise<DecisionReply>;
}

/**
 * The decision webhook client as the runner uses it (webhooks/decision-client.ts implements it).
 * `stopping` turns true when the service stops: a reply cut short by the stop is not read, the state
 * stays `decision.awaiting` and the restart fails open without sending again (spec: Routing decision
 * request — sent once).
 */
export interface CallDecisionClient extends DecisionClient {
  readonly stopping: boolean;
}

export interface CallEngineDeps {
  blocklist: BlocklistLookup;
  devices: DeviceLookup;
  decisions: DecisionClient;
  /** Speech to text for voicemails, recorded calls and live streams (world/transcriber.ts: `SimulatedTranscriber`). */
  transcriber: Transcriber;
  /** Mints ids for recordings and voicemails (`rec_…`, `vm_…`); injected so tests are deterministic. */
  newId(prefix: 'rec' | 'vm'): string;
}

// --- the call's state ------------------------------------------------------------------------------

/** An inbound call as it opens: the route is the number's route at that moment (a later PUT does not change a call in progress). */
export interface InboundCall {
  callId: string;
  accountId: string;
  numberId: string;
  from: string;
  to: string;
  startedAt: number;
  route: CallRoute | null;
  scenario: CallScenario;
}

/** contract §6 (call trace): one decision of the engine. `at` is service-clock ms. */
export interface TraceEntry {
  at: number;
  step: CallTraceStep;
  detail: string;
}

/** An event for the runner to emit through `deps.events.emit`, in the transaction that stores the step. */
export interface CallEvent {
  type: 'call.ringing' | 'call.completed' | 'call.missed' | 'call.ivr.key_pressed' | 'voicemail.received' | 'call.transcript' | 'call.transcript.delta';
  fields: Record<string, unknown>;
}

/** A ring set: the route's destinations, or an IVR `ring` action's. */
export interface RingSet {
  mode: RingMode;
  destinations: RouteDestination[];
  source: 'route' | 'ivr';
  /**
   * Which ring set of the route graph this is (call-branches.ts names the branches by it): `route`,
   * `key:D` (IVR key D's ring action) or `fallback` (the IVR fallback's). Absent in a state stored
   * before it was kept.
   */
  name?: string;
}

/**
 * A branch of the route graph a step took (contract §6, call evaluation; call-branches.ts turns each
 * into the name `svc calls test` prints). A runner with storage ignores them.
 */
export type BranchMark =
  | { kind: 'blocked' }
  | { kind: 'decision'; action: 'reject' | 'forward' | 'failopen' }
  | { kind: 'ivr.key'; digit: string }
  | { kind: 'ivr.invalid' | 'ivr.timeout' | 'ivr.fallback' | 'voicemail' }
  | { kind: 'answer'; set: string; destination: string }
  | { kind: 'noanswer'; set: string };

/** A leg that was dialed and can be answered. */
export interface Leg {
  destinationId: string | null;
  destinationType: RouteDestination['destinationType'];
  destination: string;
  deviceId: string | null;
  ringTimeoutSecs: number;
  /** spec: Call route — callerIdMode: the number the leg's phone shows (`caller`: the caller's, `business`: the number called). */
  callerId: string;
}

export type Phase =
  | { kind: 'blocklist' }
  | { kind: 'decision' }
  | { kind: 'decision.awaiting' }
  | { kind: 'route' }
  | { kind: 'ivr.prompt' }
  | { kind: 'ivr.input'; digit: string | null }
  | { kind: 'wave'; set: RingSet; index: number }
  | { kind: 'wave.end'; set: RingSet; index: number }
  | { kind: 'answered'; leg: Leg; talkSecs?: number; set?: string }
  | { kind: 'live'; turns: TranscriptTurn[]; index: number; final: boolean }
  | { kind: 'completed' }
  | { kind: 'no_answer' }
  | { kind: 'forward'; to: string; why: 'decision' | 'noAnswerAction' }
  | { kind: 'forward.end'; to: string }
  | { kind: 'machine.end' }
  | { kind: 'voicemail' }
  | { kind: 'voicemail.end' }
  | { kind: 'hangup' }
  | { kind: 'transcript' }
  | { kind: 'done' };

export interface CallState {
  call: InboundCall;
  phase: Phase;
  /**
   * When `phase` falls due (service-clock ms); null once nothing more is to come. A recorded call has
   * one step after its end (`transcript`): `endedAt` and a final status, with `dueAt` still set.
   */
  dueAt: number | null;
  status: CallStatus;
  outcome: CallMissedOutcome | null;
  /** IVR: digits of the scenario used so far, and failed prompts (timeouts + invalid digits). */
  digitsUsed: number;
  ivrFailures: number;
  answeredAt: number | null;
  answeredBy: string | null;
  answeredDevice: string | null;
  /** How long the answered call talks (the pickup's `durationSecs`); absent in an older state: the scenario's answer says. */
  talkSecs?: number;
  recordingId: string | null;
  voicemailId: string | null;
  voicemailStartedAt: number | null;
  machineAt: number | null;
  endedAt: number | null;
  trace: TraceEntry[];
}

/**
 * An outside effect a step asks its runner to perform: the decision webhook. The runner stores the
 * state (phase `decision.awaiting`) BEFORE sending, sends once, and hands the reply to
 * `resumeDecision`; a restart that finds `decision.awaiting` fails open without sending again
 * (spec: Routing decision request — sent once).
 */
export interface DecideEffect {
  kind: 'decide';
  accountId: string;
  request: DecisionRequest;
  target: { url: string; timeoutMs: number };
}

export interface StepResult {
  state: CallState;
  events: CallEvent[];
  effect?: DecideEffect;
  /** The branches of the route graph this step took, when it took any. */
  took?: BranchMark[];
}

/** A voicemail has one speaker: the caller. */
const VOICEMAIL_SPEAKER = TRANSCRIPT_SPEAKERS[0];

// --- the machine -----------------------------------------------------------------------------------

/** The state of a call that has just opened: the blocklist check is due at once. */
export function startCall(call: InboundCall): CallState {
  return {
    call,
    phase: { kind: 'blocklist' },
    dueAt: call.startedAt,
    status: 'ringing',
    outcome: null,
    digitsUsed: 0,
    ivrFailures: 0,
    answeredAt: null,
    answeredBy: null,
    answeredDevice: null,
    recordingId: null,
    voicemailId: null,
    voicemailStartedAt: null,
    machineAt: null,
    endedAt: null,
    trace: [],
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const secs = (s: number) => s * 1000;

/** Runs every step due at or before `untilMs`, in order; events in the order they were emitted. */
export async function runDueSteps(deps: CallEngineDeps, state: CallState, untilMs: number): Promise<StepResult> {
  const events: CallEvent[] = [];
  const took: BranchMark[] = [];
  // One copy for the whole run: its steps then change it in place (a copy per step was most of the run's cost).
  let s = structuredClone(state);
  while (s.dueAt !== null && s.dueAt <= untilMs) {
    const r = await stepAndPerform(deps, s);
    events.push(...r.events);
    took.push(...(r.took ?? []));
    s = r.state;
  }
  return withTook({ state: s, events }, took);
}

/**
 * Runs the call to its end, whatever the time (tests; a sandbox call with no clock to wait on).
 * A call takes a bounded number of steps (IVR digits, ring waves); past `maxSteps` it is a loop in
 * the engine, reported instead of spinning.
 */
export async function runToEnd(deps: CallEngineDeps, state: CallState, maxSteps = 1000): Promise<StepResult> {
  const events: CallEvent[] = [];
  const took: BranchMark[] = [];
  let s = structuredClone(state);
  for (let i = 0; s.dueAt !== null; i++) {
    if (i >= maxSteps) throw new Error(`call ${s.call.callId}: no end after ${maxSteps} steps (at ${s.phase.kind})`);
    const r = await stepAndPerform(deps, s);
    events.push(...r.events);
    took.push(...(r.took ?? []));
    s = r.state;
  }
  return withTook({ state: s, events }, took);
}

/** `took` only when a branch was taken: a step that took none answers as it always did. */
const withTook = (r: StepResult, took: BranchMark[]): StepResult => (took.length ? { ...r, took } : r);

/**
 * One step and, if it asks for the decision webhook, the call and the step that reads its reply
 * (in-memory runners). It changes `state`, which the caller owns.
 */
async function stepAndPerform(deps: CallEngineDeps, state: CallState): Promise<StepResult> {
  const first = await stepOwned(deps, state);
  if (!first.effect) return first;
  const reply = await performDecision(deps, first.effect);
  const second = resumeOwned(deps, first.state, reply);
  return withTook({ state: second.state, events: [...first.events, ...second.events] }, [...(first.took ?? []), ...(second.took ?? [])]);
}

/** Sends the decision request through the client; a client that throws is a network failure (fail-open). */
export async function performDecision(deps: Pick<CallEngineDeps, 'decisions'>, effect: DecideEffect): Promise<DecisionReply> {
  try {
    return await deps.decisions.decide(effect.accountId, effect.request, effect.target);
  } catch (err) {
    return { kind: 'failure', reason: 'network', detail: err instanceof Error ? err.message : String(err), latencyMs: 0 };
  }
}

/** Runs the one step that is due. The state passed in is not changed. */
export async function stepCall(deps: CallEngineDeps, state: CallState): Promise<StepResult> {
  if (state.dueAt === null) return { state, events: [] };
  return await stepOwned(deps, structuredClone(state));
}

/** `stepCall` on a state the caller owns: changed in place and returned as the result's state. */
async function stepOwned(deps: CallEngineDeps, state: CallState): Promise<StepResult> {
  if (state.dueAt === null) return { state, events: [] };
  const run = new Step(deps, state, state.dueAt);
  await run.run();
  return withTook(run.effect ? { state: run.s, events: run.events, effect: run.effect } : { state: run.s, events: run.events }, run.took);
}

/** The step after the decision webhook answered (or failed): reads the reply, fails open on anything but reject or forward. */
export function resumeDecision(deps: CallEngineDeps, state: CallState, reply: DecisionReply): StepResult {
  return resumeOwned(deps, structuredClone(state), reply);
}

function resumeOwned(deps: CallEngineDeps, state: CallState, reply: DecisionReply): StepResult {
  if (state.phase.kind !== 'decision.awaiting' || state.dueAt === null) throw new Error(`call ${state.call.callId}: no decision awaited (at ${state.phase.kind})`);
  const run = new Step(deps, state, state.dueAt);
  run.decisionReply(reply);
  return withTook({ state: run.s, events: run.events }, run.took);
}

class Step {
  readonly events: CallEvent[] = [];
  readonly took: BranchMark[] = [];
  effect: DecideEffect | undefined;
  constructor(
    private readonly deps: CallEngineDeps,
    readonly s: CallState,
    private readonly now: number,
  ) {}

  private get call(): InboundCall {
    return this.s.call;
  }
  private get route(): CallRoute | null {
    return this.s.call.route;
  }

  private trace(step: CallTraceStep, detail: string): void {
    this.s.trace.push({ at: this.now, step, detail });
  }

  private take(mark: BranchMark): void {
    this.took.push(mark);
  }

  private emit(type: CallEvent['type'], fields: Record<string, unknown>): void {
    this.events.push({ type, fields });
    this.trace('event', type);
  }

  /** The caller's hang-up, if the scenario has one (contract §9: `hangupAfterSecs`). */
  private get hangupAt(): number | null {
    const h = this.call.scenario.hangupAfterSecs;
    return h === null ? null : this.call.startedAt + secs(h);
  }

  /** Schedules the next step; a hang-up that comes first wins (it then ends whatever was under way). */
  private next(phase: Phase, at: number): void {
    const h = this.hangupAt;
    if (h !== null && h < at) {
      this.s.phase = { kind: 'hangup' };
      this.s.dueAt = Math.max(h, this.now);
      return;
    }
    this.s.phase = phase;
    this.s.dueAt = at;
  }

  private end(status: CallStatus): void {
    this.s.status = status;
    this.s.endedAt = this.now;
    this.s.phase = { kind: 'done' };
    this.s.dueAt = null;
    this.trace('ended', status + (this.s.outcome ? ` (${this.s.outcome})` : ''));
  }

  async run(): Promise<void> {
    const p = this.s.phase;
    switch (p.kind) {
      case 'blocklist':
        return await this.blocklist();
      case 'decision':
        return this.decision();
      case 'decision.awaiting':
        // Found in flight by a restart: the request may have gone out; it is never sent twice.
        this.trace('decision', 'fail-open: interrupted while waiting for the answer (not sent again); the normal route runs');
        return this.next({ kind: 'route' }, this.now);
      case 'route':
        return this.routeStart();
      case 'ivr.prompt':
        return this.ivrPrompt();
      case 'ivr.input':
        return this.ivrInput(p.digit);
      case 'wave':
        return this.wave(p.set, p.index);
      case 'wave.end':
        return this.waveEnd(p.set, p.index);
      case 'answered':
        return this.answered(p.leg, p.talkSecs, p.set);
      case 'live':
        return this.live(p.turns, p.index, p.final);
      case 'completed':
        return this.completed();
      case 'no_answer':
        return this.noAnswer();
      case 'forward':
        return this.forward(p.to, p.why);
      case 'forward.end':
        this.trace('ring.no_answer', `forwarded leg to ${p.to} was not answered`);
        return this.missed('missed');
      case 'machine.end':
        return this.missed('voicemail');
      case 'voicemail':
        return this.voicemail();
      case 'voicemail.end':
        return this.voicemailEnd();
      case 'hangup':
        return this.hangup();
      case 'transcript':
        return this.transcript();
      case 'done':
        return;
    }
  }

  // contract §6: blocklist first. spec: Blocked number — a confirmed (not auto-suggested) entry
  // rejects the call before anything rings; a suggested one is not enforced.
  private async blocklist(): Promise<void> {
    const entry = await this.deps.blocklist.find(this.call.accountId, this.call.from);
    if (entry && !entry.autoSuggested) {
      this.trace('blocklist', `${this.call.from} is blocked (${entry.id}): rejected before anything rings`);
      // Decision (the spec is silent): a blocked call emits no call.* event; its record says `blocked`.
      this.take({ kind: 'blocked' });
      return this.end('blocked');
    }
    this.trace('blocklist', entry ? `${this.call.from} is only suggested for blocking (${entry.id}): not enforced` : `${this.call.from} is not blocked`);
    this.next({ kind: 'decision' }, this.now);
  }

  // spec: Routing decision request — POSTed as the call opens, before any greeting or ring, sent once,
  // waits up to timeoutMs, fail-open. contract §6: `{"action":"reject"}` rejects,
  // `{"action":"forward","to":E.164}` forwards, anything else runs the normal route.
  private decision(): void {
    const dw = this.route?.decisionWebhook;
    if (!dw || !dw.enabled || !this.route?.enabled) return this.next({ kind: 'route' }, this.now);
    const request: DecisionRequest = { numberId: this.call.numberId, callId: this.call.callId, from: this.call.from, to: this.call.to, startedAt: iso(this.call.startedAt) };
    this.effect = { kind: 'decide', accountId: this.call.accountId, request, target: { url: dw.url, timeoutMs: dw.timeoutMs } };
    this.s.phase = { kind: 'decision.awaiting' };
    this.s.dueAt = this.now;
  }

  decisionReply(reply: DecisionReply): void {
    const dw = this.route!.decisionWebhook!;
    const failOpen = (why: string) => {
      this.trace('decision', `fail-open: ${why}; the normal route runs`);
      this.take({ kind: 'decision', action: 'failopen' });
      this.next({ kind: 'route' }, this.now);
    };
    if (reply.kind === 'failure') return failOpen(`${reply.reason === 'not_sent' ? 'not sent' : reply.reason} (${reply.detail}) after ${reply.latencyMs} ms`);
    // spec: waits up to timeoutMs — an answer later than that is a timeout, whatever the client did.
    if (reply.latencyMs > dw.timeoutMs) return failOpen(`timeout: answered after ${reply.latencyMs} ms, more than ${dw.timeoutMs} ms`);
    if (reply.status !== 200) return failOpen(`HTTP ${reply.status} in ${reply.latencyMs} ms`);
    const body = reply.body;
    const action = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).action : undefined;
    if (typeof action !== 'string') return failOpen(`malformed body (no string "action") in ${reply.latencyMs} ms`);
    if (action === 'reject') {
      this.trace('decision', `reject in ${reply.latencyMs} ms`);
      this.take({ kind: 'decision', action: 'reject' });
      // Decision (the spec is silent): a rejected call ends like a blocked one, with no call.* event.
      return this.end('blocked');
    }
    if (action === 'forward') {
      const to = (body as Record<string, unknown>).to;
      if (typeof to !== 'string' || !E164_PATTERN.test(to)) return failOpen(`malformed body ("forward" without an E.164 "to") in ${reply.latencyMs} ms`);
      this.trace('decision', `forward to ${to} in ${reply.latencyMs} ms`);
      this.take({ kind: 'decision', action: 'forward' });
      return this.next({ kind: 'forward', to, why: 'decision' }, this.now);
    }
    this.trace('decision', `"${action}" in ${reply.latencyMs} ms: the normal route runs`);
    // The graph has one edge from the webhook to the normal route, whatever sent the call down it.
    this.take({ kind: 'decision', action: 'failopen' });
    this.next({ kind: 'route' }, this.now);
  }

  // contract §6: → recording notice → IVR → ring set.
  private routeStart(): void {
    const r = this.route;
    if (!r) {
      this.trace('route', 'the number has no route: nothing rings');
      return this.missed('missed');
    }
    if (!r.enabled) {
      this.trace('route', 'the route is disabled: nothing rings');
      return this.missed('missed');
    }
    // spec: Call route — recordingNotice is played to the caller before connecting when recordCalls is on.
    if (r.recordingNotice) {
      if (r.recordCalls) this.trace('notice', `played: ${describeMedia(r.recordingNotice)}`);
      else this.trace('notice', 'not played: recordCalls is off');
    }
    if (r.ivr?.enabled) return this.next({ kind: 'ivr.prompt' }, this.now);
    this.next({ kind: 'wave', set: { mode: r.ringMode, destinations: r.destinations, source: 'route', name: 'route' }, index: 0 }, this.now);
  }

  // --- IVR (spec: IVR object) ---

  private ivrPrompt(): void {
    const ivr = this.route!.ivr!;
    this.trace('ivr.prompt', `greeting ${describeMedia(ivr.greeting)}${this.s.ivrFailures > 0 ? ` (again, after ${this.s.ivrFailures} failed)` : ''}`);
    // Decision (the spec is silent): a prompt takes no service time; a scenario digit is pressed as it
    // ends, and without one the digit timeout (digitTimeoutSecs) runs.
    const digit = this.scriptedKey();
    if (digit !== null) return this.next({ kind: 'ivr.input', digit }, this.now);
    this.next({ kind: 'ivr.input', digit: null }, this.now + secs(ivr.digitTimeoutSecs));
  }

  /** The key the caller presses at this prompt, or null (silent: the digit timeout runs). */
  private scriptedKey(): string | null {
    const { presses, digits } = this.call.scenario;
    if (presses) return presses[this.s.digitsUsed] || null;
    return digits[this.s.digitsUsed] ?? null;
  }

  private ivrInput(digit: string | null): void {
    const ivr = this.route!.ivr!;
    if (digit === null) {
      // A silent entry of `presses` is this prompt's: the next prompt reads the entry after it.
      const presses = this.call.scenario.presses;
      if (presses && this.s.digitsUsed < presses.length) this.s.digitsUsed += 1;
      this.trace('ivr.timeout', `no digit within ${ivr.digitTimeoutSecs} s`);
      this.take({ kind: 'ivr.timeout' });
      return this.ivrFailed();
    }
    this.s.digitsUsed += 1;
    const key = ivr.keys.find((k) => k.digit === digit);
    if (!key) {
      // spec: call.ivr.key_pressed — invalid digits and timeouts never fire it.
      this.trace('ivr.invalid', `${digit} is not on the menu`);
      this.take({ kind: 'ivr.invalid' });
      return this.ivrFailed();
    }
    this.trace('ivr.key', `${digit}${key.label ? ` (${key.label})` : ''} → ${key.action.type}`);
    this.take({ kind: 'ivr.key', digit });
    // spec: call.ivr.key_pressed — an accepted keypress, before its action runs.
    this.emit('call.ivr.key_pressed', { callId: this.call.callId, numberId: this.call.numberId, digit, label: key.label, from: this.call.from, to: this.call.to, at: iso(this.now) });
    this.ivrAction(key.action, `key:${digit}`);
  }

  // spec: IVR object — invalidRetries: how many failed prompts (timeouts or invalid digits) are played
  // again; one more failure runs `fallback`.
  private ivrFailed(): void {
    const ivr = this.route!.ivr!;
    this.s.ivrFailures += 1;
    if (this.s.ivrFailures <= ivr.invalidRetries) return this.next({ kind: 'ivr.prompt' }, this.now);
    this.trace('ivr.fallback', `${this.s.ivrFailures} failed (invalidRetries ${ivr.invalidRetries}) → ${ivr.fallback.type}`);
    this.take({ kind: 'ivr.fallback' });
    this.ivrAction(ivr.fallback, 'fallback');
  }

  /** `from` names the ring set an action's ring would be: `key:D` or `fallback`. */
  private ivrAction(action: IvrAction, from: `key:${string}` | 'fallback'): void {
    switch (action.type) {
      case 'ring':
        return this.next({ kind: 'wave', set: { mode: action.ringMode, destinations: action.destinations, source: 'ivr', name: from }, index: 0 }, this.now);
      case 'voicemail':
        return this.next({ kind: 'voicemail' }, this.now);
      case 'repeat':
        // spec: IVR object — `repeat` plays the menu again (not a failure).
        if (from !== 'fallback') return this.next({ kind: 'ivr.prompt' }, this.now);
        // Decision (the spec is silent): a `repeat` fallback would replay the menu forever; the call
        // goes on to the no-answer action instead.
        this.trace('ivr.fallback', 'repeat as the fallback would loop: the no-answer action runs');
        return this.next({ kind: 'no_answer' }, this.now);
    }
  }

  // --- the ring set (contract §6: ringMode; spec: Call route) ---

  private async wave(set: RingSet, index: number): Promise<void> {
    const waves = ringWaves(set);
    const members = waves[index];
    if (!members) {
      this.take({ kind: 'noanswer', set: set.name ?? set.source });
      return this.next({ kind: 'no_answer' }, this.now);
    }
    const dialed: Array<{ leg: Leg; label: string | null }> = [];
    for (const d of members) {
      const leg = await this.dial(d);
      if (leg) dialed.push({ leg, label: d.label });
    }
    if (dialed.length === 0) return this.next({ kind: 'wave', set, index: index + 1 }, this.now);
    const pick = pickUp(this.call.scenario, dialed);
    if (pick) return this.next({ kind: 'answered', leg: pick.leg, talkSecs: pick.durationSecs, set: set.name ?? set.source }, this.now + secs(pick.afterSecs));
    // The wave rings until its longest leg times out (sequential: the one leg's own timeout).
    const longest = Math.max(...dialed.map((l) => l.leg.ringTimeoutSecs));
    this.next({ kind: 'wave.end', set, index }, this.now + secs(longest));
  }

  /** Dials one destination, or records why it is skipped (contract §6: disabled destinations, stale devices). */
  private async dial(d: RouteDestination): Promise<Leg | null> {
    const name = `${d.destinationType} ${d.destination} (${d.id})`;
    if (!d.enabled) {
      this.trace('leg.skipped', `${name}: disabled`);
      return null;
    }
    let deviceId: string | null = null;
    if (d.destinationType === 'webrtc') {
      const device = await this.deps.devices.find(this.call.accountId, d.destination);
      if (!device) {
        this.trace('leg.skipped', `${name}: no such device`);
        return null;
      }
      // contract §6: stale after 60 s without a heartbeat (or offline).
      const stale = device.presence === 'offline' || device.lastSeenAt === null || this.now - device.lastSeenAt > secs(DEVICE_STALE_AFTER_SECS);
      if (stale) {
        this.trace('leg.skipped', `${name}: stale device (${device.presence}, last seen ${device.lastSeenAt === null ? 'never' : iso(device.lastSeenAt)})`);
        return null;
      }
      deviceId = device.id;
      this.trace('leg.dialed', `${name} for ${d.ringTimeoutSecs} s, caller ID ${this.callerId}`);
      // spec: call.ringing — per dialed softphone leg, `devices` the one device of the leg (contract
      // §6); never for SIP or PSTN legs; attempted once (SINGLE_ATTEMPT_EVENT_TYPES). `from` is the
      // original caller whatever callerIdMode says (spec: Event catalog — the call's from and to; the
      // caller ID shown on the leg is in the trace).
      this.emit('call.ringing', { callId: this.call.callId, from: this.call.from, to: this.call.to, devices: [{ deviceId: device.id, userId: device.userId }] });
    } else {
      this.trace('leg.dialed', `${name} for ${d.ringTimeoutSecs} s, caller ID ${this.callerId}`);
    }
    return { destinationId: d.id, destinationType: d.destinationType, destination: d.destination, deviceId, ringTimeoutSecs: d.ringTimeoutSecs, callerId: this.callerId };
  }

  /**
   * spec: Call route — callerIdMode: `caller` shows the original caller, `business` the number called;
   * on every leg the engine dials, forwards included (the route's mode; `caller` is the default).
   */
  private get callerId(): string {
    return this.route?.callerIdMode === 'business' ? this.call.to : this.call.from;
  }

  private waveEnd(set: RingSet, index: number): void {
    const waves = ringWaves(set);
    this.trace('ring.no_answer', `${describeWave(set, index, waves.length)}: nobody answered`);
    this.next({ kind: 'wave', set, index: index + 1 }, this.now);
  }

  // --- answered (contract §6: → call.completed; recording) ---

  private answered(leg: Leg, talkSecs: number | undefined, set: string | undefined): void {
    const talk = talkSecs ?? this.call.scenario.answer!.durationSecs;
    this.s.talkSecs = talk;
    if (set !== undefined) this.take({ kind: 'answer', set, destination: leg.destination });
    this.s.status = 'in_progress';
    this.s.answeredAt = this.now;
    this.s.answeredBy = leg.destination;
    this.s.answeredDevice = leg.deviceId;
    this.trace('answered', `by ${leg.destinationType} ${leg.destination}${leg.destinationId ? ` (${leg.destinationId})` : ''}`);
    // spec: Call route — recordCalls records answered calls; a call.transcript follows each (the
    // `transcript` step after the end).
    if (this.route?.recordCalls) {
      this.s.recordingId = this.deps.newId('rec');
      this.trace('recording', `recording ${this.s.recordingId}`);
    }
    const endAt = this.now + secs(talk);
    if (this.route?.liveTranscription) return this.liveStart(talk, endAt);
    this.next({ kind: 'completed' }, endAt);
  }

  // --- live transcription (spec: Call route liveTranscription; Event catalog call.transcript.delta) ---

  // While bridged, each turn of the talk gives an interim result (`final: false`, its first half)
  // half-way through the turn and the final one as the turn ends; the speakers take turns, so an
  // interim is superseded by the next result of the same speaker. The turns are the transcriber's for
  // the planned talk time (scenario durationSecs), seeded by the recording id (the call id when not
  // recorded), so a recorded call's live stream and its call.transcript agree. The turns split the
  // talk time evenly; TRANSCRIPTION.maxTurns caps a long call at 2 × maxTurns steps. A hang-up cuts
  // the stream (the turn under way gets no final). The events are non-durable (spec: Delivery), the
  // runner emits them like any other and the event store treats the type.
  private liveStart(durationSecs: number, endAt: number): void {
    const id = this.s.recordingId ?? this.call.callId;
    const r = this.deps.transcriber.transcribe({ recordingId: id, kind: 'call', from: this.call.from, to: this.call.to, durationSecs, speakers: TRANSCRIPT_SPEAKERS });
    if (r.status === 'failed' || r.turns.length === 0) {
      this.trace('transcript.live', `no live transcript (the transcriber failed on ${durationSecs} s of talk): no deltas`);
      return this.next({ kind: 'completed' }, endAt);
    }
    this.trace('transcript.live', `${r.turns.length} turns over ${durationSecs} s, each an interim then a final call.transcript.delta`);
    this.next({ kind: 'live', turns: r.turns, index: 0, final: false }, this.liveAt(r.turns.length, 0, false));
  }

  /** When a turn's interim (half-way) or final (its end) result falls due. */
  /** The answered call's planned talk time (a state stored before `talkSecs` was kept: the scenario's answer). */
  private get talkSecs(): number {
    return this.s.talkSecs ?? this.call.scenario.answer!.durationSecs;
  }

  private liveAt(count: number, index: number, final: boolean): number {
    const talkMs = secs(this.talkSecs);
    return this.s.answeredAt! + Math.round((talkMs * (index + (final ? 1 : 0.5))) / count);
  }

  private live(turns: TranscriptTurn[], index: number, final: boolean): void {
    const turn = turns[index]!;
    this.emit('call.transcript.delta', { callId: this.call.callId, speaker: turn.speaker, text: final ? turn.text : interimText(turn.text), final, at: iso(this.now) });
    if (!final) return this.next({ kind: 'live', turns, index, final: true }, this.liveAt(turns.length, index, true));
    if (index + 1 < turns.length) return this.next({ kind: 'live', turns, index: index + 1, final: false }, this.liveAt(turns.length, index + 1, false));
    this.next({ kind: 'completed' }, this.s.answeredAt! + secs(this.talkSecs));
  }

  private completed(): void {
    const answeredAt = this.s.answeredAt!;
    // spec: call.completed — an answered call ends; once. contract §6: answeredDevice (null unless a softphone answered).
    this.emit('call.completed', {
      callId: this.call.callId,
      from: this.call.from,
      to: this.call.to,
      answeredAt: iso(answeredAt),
      endedAt: iso(this.now),
      durationSeconds: Math.round((this.now - answeredAt) / 1000),
      answeredBy: this.s.answeredBy,
      answeredDevice: this.s.answeredDevice,
      direction: 'inbound',
    });
    this.end('completed');
    if (this.s.recordingId !== null) {
      // spec: call.transcript — "seconds to minutes after it ends": a step after the end (the call's
      // status stays `completed`; no hang-up can touch it), CALL_TRANSCRIPT_DELAY after endedAt.
      this.s.phase = { kind: 'transcript' };
      this.s.dueAt = this.now + secs(callTranscriptDelaySecs((this.now - answeredAt) / 1000));
    }
  }

  // spec: call.transcript — exactly once per recorded call; a failed transcription still delivers
  // with transcript null, no turns and status `failed`. recordingUrl is relative (the API serves it).
  private transcript(): void {
    const recordingId = this.s.recordingId!;
    const talkSecs = (this.s.endedAt! - this.s.answeredAt!) / 1000;
    const r = this.deps.transcriber.transcribe({ recordingId, kind: 'call', from: this.call.from, to: this.call.to, durationSecs: talkSecs, speakers: TRANSCRIPT_SPEAKERS });
    this.trace('transcript', r.status === 'available' ? `recording ${recordingId}: available, ${r.turns.length} turns` : `recording ${recordingId}: failed (no transcript of ${talkSecs} s); delivered without one`);
    this.emit('call.transcript', {
      callId: this.call.callId,
      recordingId,
      from: this.call.from,
      to: this.call.to,
      transcript: r.status === 'available' ? r.text : null,
      transcriptTurns: r.status === 'available' ? r.turns : [],
      transcriptStatus: r.status,
      durationSeconds: Math.round(talkSecs),
      recordingUrl: callRecordingPath(this.call.callId),
    });
    this.s.phase = { kind: 'done' };
    this.s.dueAt = null;
  }

  // --- not answered (spec: Call route — noAnswerAction; null: voicemail when enabled, else rings out) ---

  private noAnswer(): void {
    const r = this.route!;
    const action = r.noAnswerAction;
    if (action?.type === 'forward') return this.next({ kind: 'forward', to: action.to, why: 'noAnswerAction' }, this.now);
    if (action?.type === 'voicemail' || (action === null && r.voicemailEnabled)) return this.next({ kind: 'voicemail' }, this.now);
    this.trace('ring.no_answer', 'no voicemail: the call rings out');
    this.missed('missed');
  }

  // Decision (the spec is silent): a forwarded leg rings for the default ring timeout (spec: Limits).
  private forward(to: string, why: 'decision' | 'noAnswerAction'): void {
    const timeoutSecs = ROUTE_LIMITS.ringTimeoutSecs.default;
    this.trace('forward', `to ${to} (${why === 'decision' ? 'the decision webhook' : 'noAnswerAction'}), ringing for ${timeoutSecs} s, caller ID ${this.callerId}`);
    const leg: Leg = { destinationId: null, destinationType: 'pstn', destination: to, deviceId: null, ringTimeoutSecs: timeoutSecs, callerId: this.callerId };
    const { machine } = this.call.scenario;
    const human = pickUp(this.call.scenario, [{ leg, label: null }]);
    if (machine) {
      // contract §6: a machine that picks up a forwarded leg where nobody presses 1 ends the call with
      // outcome `voicemail`. Decision: it picks up when a person would have (scenario.answer), else as
      // the leg's ring timeout runs out, and records for VOICEMAIL_DEFAULT_SECS.
      const pickup = this.now + secs(human ? human.afterSecs : timeoutSecs);
      const h = this.hangupAt;
      if (h !== null && h < pickup) return this.next({ kind: 'hangup' }, h);
      this.s.machineAt = pickup;
      this.s.trace.push({ at: pickup, step: 'machine', detail: `a machine picked up ${to}; nobody pressed 1` });
      return this.next({ kind: 'machine.end' }, pickup + secs(VOICEMAIL_DEFAULT_SECS));
    }
    if (human) return this.next({ kind: 'answered', leg, talkSecs: human.durationSecs }, this.now + secs(human.afterSecs));
    this.next({ kind: 'forward.end', to }, this.now + secs(timeoutSecs));
  }

  // --- voicemail (contract §6: call.missed outcome voicemail, then voicemail.received) ---

  private voicemail(): void {
    const r = this.route!;
    // spec: Call route — voicemailGreetingAudioUrl is played instead of the text; null text uses the default.
    const greeting = r.voicemailGreetingAudioUrl ? `audio ${r.voicemailGreetingAudioUrl}` : r.voicemailGreeting ? `text "${r.voicemailGreeting}"` : 'the default greeting';
    this.s.voicemailId = this.deps.newId('vm');
    this.s.voicemailStartedAt = this.now;
    this.take({ kind: 'voicemail' });
    this.trace('voicemail', `${greeting}, then recording ${this.s.voicemailId}`);
    this.next({ kind: 'voicemail.end' }, this.now + secs(VOICEMAIL_DEFAULT_SECS));
  }

  private voicemailEnd(): void {
    this.missed('voicemail');
    const id = this.s.voicemailId!;
    const lengthSecs = (this.now - this.s.voicemailStartedAt!) / 1000;
    // spec: voicemail.received — transcriptStatus `available` with the text, or `failed` (transcript
    // null; the voicemail is delivered all the same and its audio stays at recordingUrl).
    const r = this.deps.transcriber.transcribe({ recordingId: id, kind: 'voicemail', from: this.call.from, to: this.call.to, durationSecs: lengthSecs, speakers: [VOICEMAIL_SPEAKER] });
    this.trace('transcript', r.status === 'available' ? `voicemail ${id}: available, ${r.turns.length} turns` : `voicemail ${id}: failed (no transcript of ${lengthSecs} s); delivered without one`);
    // spec: voicemail.received — once per captured voicemail, after the call.missed with outcome voicemail.
    this.emit('voicemail.received', {
      callId: this.call.callId,
      voicemailId: id,
      from: this.call.from,
      to: this.call.to,
      transcript: r.status === 'available' ? r.text : null,
      transcriptStatus: r.status,
      durationSeconds: Math.round(lengthSecs),
      recordingUrl: voicemailAudioPath(id),
      receivedAt: iso(this.now),
    });
  }

  // --- the caller hangs up (contract §9: hangupAfterSecs) ---

  private hangup(): void {
    this.trace('hangup', 'the caller hung up');
    if (this.s.answeredAt !== null) return this.completed();
    if (this.s.voicemailStartedAt !== null) return this.voicemailEnd();
    if (this.s.machineAt !== null) return this.missed('voicemail');
    this.missed('missed');
  }

  /** spec: call.missed — a call ends unanswered (outcome `missed`, or `voicemail`). */
  private missed(outcome: CallMissedOutcome): void {
    this.s.outcome = outcome;
    this.emit('call.missed', { callId: this.call.callId, from: this.call.from, to: this.call.to, outcome, endedAt: iso(this.now), direction: 'inbound' });
    this.end('missed');
  }
}

/** An interim result of a turn: its first half of words (at least one). */
function interimText(text: string): string {
  const words = text.split(' ');
  return words.slice(0, Math.max(1, Math.ceil(words.length / 2))).join(' ');
}

function answerMatches(answer: NonNullable<CallScenario['answer']>, leg: Leg): boolean {
  if (answer.destinationId !== undefined) return leg.destinationId === answer.destinationId;
  if (answer.deviceId !== undefined) return leg.deviceId === answer.deviceId;
  return true;
}

/** A pickup names a leg by its destination (E.164, SIP URI, device id) or its label. */
const pickupMatches = (p: Pickup, leg: Leg, label: string | null): boolean => p.who === leg.destination || p.who === leg.deviceId || (label !== null && p.who === label);

/**
 * Who answers among the legs ringing at once: the earliest pickup that comes before its leg's ring
 * timeout (a tie: the leg dialed first). The sandbox scenario's one `answer` takes the first leg it
 * matches; evaluation's `pickups` each name their leg.
 */
function pickUp(scenario: CallScenario, legs: ReadonlyArray<{ leg: Leg; label: string | null }>): { leg: Leg; afterSecs: number; durationSecs: number } | null {
  let best: { leg: Leg; afterSecs: number; durationSecs: number } | null = null;
  for (const { leg, label } of legs) {
    const rules = scenario.pickups ? scenario.pickups.filter((p) => pickupMatches(p, leg, label)) : scenario.answer && answerMatches(scenario.answer, leg) ? [scenario.answer] : [];
    for (const r of rules) {
      if (r.afterSecs >= leg.ringTimeoutSecs) continue;
      if (!best || r.afterSecs < best.afterSecs) best = { leg, afterSecs: r.afterSecs, durationSecs: r.durationSecs };
    }
  }
  return best;
}

/**
 * contract §6: the waves of a ring set by `ringMode` — `simultaneous` one wave of all; `sequential`
 * one destination at a time by priority; `staged` stage 0, then 1, … (each stage by priority).
 * Disabled destinations stay in their wave so the trace can say they were skipped.
 */
export function ringWaves(set: RingSet): RouteDestination[][] {
  const byPriority = [...set.destinations].sort((a, b) => a.priority - b.priority);
  switch (set.mode) {
    case 'simultaneous':
      return byPriority.length ? [byPriority] : [];
    case 'sequential':
      return byPriority.map((d) => [d]);
    case 'staged': {
      const stages = [...new Set(byPriority.map((d) => d.stage))].sort((a, b) => a - b);
      return stages.map((st) => byPriority.filter((d) => d.stage === st));
    }
  }
}

function describeWave(set: RingSet, index: number, count: number): string {
  const what = set.source === 'ivr' ? 'IVR ring set' : 'ring set';
  return set.mode === 'simultaneous' ? what : `${what} ${set.mode} wave ${index + 1} of ${count}`;
}

function describeMedia(m: { text: string | null; audioUrl: string | null }): string {
  return m.audioUrl ? `audio ${m.audioUrl}` : `text "${m.text ?? ''}"`;
}
