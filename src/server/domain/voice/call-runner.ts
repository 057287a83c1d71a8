import type { DomainDeps, TxDeps, DomainScheduler, DomainEvents } from '../deps.js';
import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { NumbersRepo } from '../../storage/numbers-repo.js';
import type { RoutesRepo, StoredRoute } from '../../storage/routes-repo.js';
import type { CallProgress, CallRecord, CallsRepo, StoredTraceEntry } from '../../storage/calls-repo.js';
import type { VoicemailsRepo } from '../../storage/voicemails-repo.js';
import type { BillingDeps } from '../billing/charging.js';
import { chargeCallUsage } from './call-billing.js';
import type { Transcriber } from '../../world/transcriber.js';
import type { BlockedNumbersRepo } from '../../storage/blocked-numbers-repo.js';
import type { DevicesRepo } from '../../storage/devices-repo.js';
import type { CallRoute } from '../../../api/schemas/routes.js';
import type { CallStatus, TranscriptStatus } from '../../../api/values/calls.js';
import { PRICES } from '../../../api/values/prices.js';
import { newId } from '../../ids.js';
import {
  performDecision,
  resumeDecision,
  stepCall,
  type CallEngineDeps,
  type CallEvent,
  type CallState,
  type CallDecisionClient,
} from './call-engine.js';

// contract §6 (the call engine, runs on the service clock as durable steps), §11 (voice and
// transcription usage). The runner drives the pure engine (call-engine.ts) with the service's
// storage: each step is a `call.step` scheduler job, so a clock advance walks a call through its
// timeouts and a restart resumes it from the stored state. Per step, ONE transaction writes the call
// row (status, times, parties, outcome, state, trace), the voicemail row, the blocklist counter and
// the usage charges, THEN emits the step's events (an outbox reading the `calls` table sees the row
// as the event describes it), THEN schedules the next step at the new `dueAt`.

export interface CallsDeps extends BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  events: DomainEvents;
  numbers: NumbersRepo;
  routes: RoutesRepo;
  calls: CallsRepo;
  voicemails: VoicemailsRepo;
  blockedNumbers: BlockedNumbersRepo;
  devices: DevicesRepo;
  decisions: CallDecisionClient;
  /** The outside world's speech-to-text (world/transcriber.ts, simulated on the local service). */
  transcriber: Transcriber;
}

export const JOB_CALL_STEP = 'call.step';

/**
 * contract §6, Decision (the contract is silent on the outbound leg): an outbound softphone call is
 * not run by the inbound engine; its state is this small machine (outbound-calls.ts): the callee
 * answers (`answer`), then hangs up (`end`).
 */
export interface OutboundState {
  kind: 'outbound';
  deviceId: string;
  phase: 'answer' | 'end' | 'done';
  dueAt: number | null;
}

export type RunnerState = CallState | OutboundState;

export const isOutboundState = (s: unknown): s is OutboundState => typeof s === 'object' && s !== null && (s as { kind?: unknown }).kind === 'outbound';

/**
 * The engine's view of the outside world, built in ONE place so a new dependency of the engine (a
 * transcriber) is added here only.
 */
export function engineDeps(deps: Pick<DomainDeps, 'uow' | 'decisions' | 'transcriber'>): CallEngineDeps {
  // The engine steps with no transaction open (it may call the decision webhook and the
  // transcriber): what it looks up, it reads in a read of its own.
  return {
    blocklist: {
      async find(accountId, phoneNumber) {
        const entry = await deps.uow.read((tx) => tx.blockedNumbers.findByNumber(accountId, phoneNumber));
        return entry ? { id: entry.id, autoSuggested: entry.autoSuggested } : null;
      },
    },
    devices: {
      async find(accountId, deviceId) {
        const d = await deps.uow.read((tx) => tx.devices.get(accountId, deviceId));
        return d ? { id: d.id, userId: d.userId, presence: d.presence, lastSeenAt: d.lastSeenAt } : null;
      },
    },
    decisions: deps.decisions,
    transcriber: deps.transcriber,
    newId: (prefix) => newId(prefix),
  };
}

/** The number's route as the call opens (a later PUT does not change a call in progress). */
export async function routeSnapshot(deps: Pick<CallsDeps, 'routes'>, numberId: string): Promise<CallRoute | null> {
  const rec = await deps.routes.get(numberId);
  if (!rec?.route) return null;
  return withGreeting(rec.route, rec.greetingMedia);
}

/**
 * A stored route as the engine runs it, with the number's uploaded greeting. The engine only names
 * the greeting in the trace: the media path (the absolute URL depends on the address a caller uses,
 * which a background step does not have).
 */
export const withGreeting = (route: StoredRoute, greetingMedia: string | null): CallRoute => ({
  ...route,
  voicemailGreetingAudioUrl: greetingMedia === null ? null : `/media/${greetingMedia}`,
});

// --- writing a step --------------------------------------------------------------------------------

/** The row's columns as the state says (inbound: the engine's state). */
export function progressOf(state: CallState): CallProgress {
  return {
    status: state.status,
    answeredAt: state.answeredAt,
    endedAt: state.endedAt,
    durationSeconds: talkSeconds(state.answeredAt, state.endedAt),
    answeredBy: state.answeredBy,
    answeredDevice: state.answeredDevice,
    outcome: state.outcome,
    recordingId: state.recordingId,
    voicemailId: state.voicemailId,
    // Nothing left to run: the column is cleared (the trace stays). A state whose status is final but
    // still has a step due (a transcript after the end) is kept and stepped.
    state: state.dueAt === null ? null : state,
    trace: state.trace,
  };
}

/** contract §6: durationSeconds = seconds from answer to end; null until an answered call ends. */
export const talkSeconds = (answeredAt: number | null, endedAt: number | null): number | null =>
  answeredAt === null || endedAt === null ? null : Math.max(0, Math.round((endedAt - answeredAt) / 1000));

/** contract §11: per started minute; an answered call has started its first minute. */
export const startedMinutes = (seconds: number): number => Math.max(1, Math.ceil(seconds / 60));

/**
 * One step's writes, in order (call inside a transaction): the row, the voicemail, the blocklist
 * counter and the charges; then the events; then the next job. `before` is the row as it was.
 */
export async function commitStep(deps: CallsDeps, before: CallRecord, progress: CallProgress, events: readonly CallEvent[], dueAt: number | null, newTrace: readonly StoredTraceEntry[]): Promise<void> {
  const now = deps.clock.nowMs();
  await deps.calls.update(before.id, progress, now);

  for (const e of events) {
    if (e.type !== 'voicemail.received') continue;
    // contract §6: Voicemail — the row says what the event says.
    const f = e.fields;
    await deps.voicemails.insert({
      id: String(f.voicemailId),
      accountId: before.accountId,
      callId: before.id,
      numberId: before.numberId,
      from: before.from,
      to: before.to,
      durationSeconds: Number(f.durationSeconds),
      transcript: (f.transcript as string | null) ?? null,
      transcriptStatus: f.transcriptStatus as TranscriptStatus,
      receivedAt: typeof f.receivedAt === 'string' ? Date.parse(f.receivedAt) : now,
      createdAt: now,
    });
  }

  if (progress.status === 'blocked' && before.status !== 'blocked') {
    // spec: Blocked number — blockedCallCount counts the calls an entry rejected. The engine names the
    // entry in its blocklist trace line; a call rejected by the decision webhook names none.
    for (const t of newTrace) {
      const m = t.step === 'blocklist' ? /is blocked \(([^)\s]+)\)/.exec(t.detail) : null;
      if (m) await deps.blockedNumbers.recordBlockedCall(m[1]!, t.at);
    }
  }

  await recordUsage(deps, before, progress, events);

  for (const e of events) await deps.events.emit(before.accountId, e.type, absoluteUrls(before, withDirection(before, e)));

  if (dueAt !== null) await deps.scheduler.schedule(JOB_CALL_STEP, dueAt, { callId: before.id });
  // Most steps emit no event; an open call page shows them as they commit all the same.
  if (newTrace.length > 0) deps.events.touched(before.accountId, 'call', before.id);
}

/** contract §6 / spec: Event catalog — `direction` on call.* events (absent means inbound; we always send it). */
function withDirection(call: CallRecord, e: CallEvent): Record<string, unknown> {
  if (!e.type.startsWith('call.') || 'direction' in e.fields) return e.fields;
  return { ...e.fields, direction: call.direction };
}

/**
 * spec: voicemail.received, call.transcript — `recordingUrl` is where the audio is fetched. The engine
 * writes the service path (`/v1/voicemails/{id}/audio`); it becomes an absolute URL on the address the
 * call was placed through (as media URLs are built on the address the caller used).
 */
function absoluteUrls(call: CallRecord, fields: Record<string, unknown>): Record<string, unknown> {
  const url = fields.recordingUrl;
  if (call.origin === null || typeof url !== 'string' || !url.startsWith('/')) return fields;
  return { ...fields, recordingUrl: `${call.origin}${url}` };
}

/**
 * contract §11: `voiceMinute` per started minute of an answered call's talk time, charged as the call
 * ends; `transcriptionMinute` per started minute transcribed (a voicemail's or a recording's
 * transcript that came back `available`; a failed transcription transcribed nothing). Live calls only,
 * as for messages (test keys never move money).
 */
const isLiveTranscribed = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && !isOutboundState(state) && (state as CallState).call.route?.liveTranscription === true;

async function recordUsage(deps: BillingDeps, before: CallRecord, progress: CallProgress, events: readonly CallEvent[]): Promise<void> {
  if (before.mode !== 'live') return;
  const ended: CallStatus = progress.status;
  if (ended === 'completed' && before.status !== 'completed' && progress.durationSeconds !== null) {
    const minutes = startedMinutes(progress.durationSeconds);
    await chargeCallUsage(deps, before.accountId, { category: 'voice', quantity: minutes, amountCents: minutes * PRICES.voiceMinute, ref: before.id });
    // spec: Call route — liveTranscription is "billed per minute": the bridged minutes were transcribed live.
    if (isLiveTranscribed(before.state)) {
      await chargeCallUsage(deps, before.accountId, { category: 'transcription', quantity: minutes, amountCents: minutes * PRICES.transcriptionMinute, ref: `${before.id}:live` });
    }
  }
  for (const e of events) {
    const type = e.type;
    if (type !== 'voicemail.received' && type !== 'call.transcript') continue;
    if (e.fields.transcriptStatus !== 'available') continue;
    const minutes = startedMinutes(Number(e.fields.durationSeconds ?? 0));
    const ref = String(e.fields.voicemailId ?? e.fields.recordingId ?? before.id);
    await chargeCallUsage(deps, before.accountId, { category: 'transcription', quantity: minutes, amountCents: minutes * PRICES.transcriptionMinute, ref });
  }
}

// --- running the steps -----------------------------------------------------------------------------

/**
 * The `call.step` job: runs every step of the call due by now, each in its own transaction. Returns
 * how many steps ran (a clock advance reports them). A job that finds nothing due does nothing: a
 * transfer or a decision reply moved the call on and scheduled its own job.
 */
export async function runCallSteps(
  deps: Pick<DomainDeps, 'uow' | 'decisions' | 'transcriber' | 'clock'>,
  callId: string,
  stepOutbound: (deps: CallsDeps & TxDeps, call: CallRecord, state: OutboundState) => Promise<void>,
): Promise<number> {
  const engine = engineDeps(deps);
  let steps = 0;
  for (;;) {
    const call = await deps.uow.read((tx) => tx.calls.getById(callId));
    const state = call?.state as RunnerState | null | undefined;
    if (!call || !state || state.dueAt === null || state.dueAt > deps.clock.nowMs()) return steps;
    steps += 1;
    if (isOutboundState(state)) {
      await deps.uow.write(async (tx) => stepOutbound(tx, call, state));
      continue;
    }
    // A state found at `decision.awaiting` here was left by a run that stopped while waiting (the
    // normal run resumes it below before returning): the engine fails open without sending again.
    const r = await stepCall(engine, state);
    if (!r.effect) {
      await deps.uow.write(async (tx) => await commitStep(tx, call, progressOf(r.state), r.events, later(tx, r.state.dueAt), r.state.trace.slice(state.trace.length)));
      continue;
    }
    // spec: Routing decision request — sent once. The state (phase `decision.awaiting`) and a job at
    // its time commit BEFORE the request goes out: after a crash that job finds the state and fails
    // open; it never sends.
    await deps.uow.write(async (tx) => await commitStep(tx, call, progressOf(r.state), r.events, r.state.dueAt, r.state.trace.slice(state.trace.length)));
    const reply = await performDecision(engine, r.effect);
    if (deps.decisions.stopping) return steps;
    await deps.uow.write(async (tx) => {
      const current = await tx.calls.getById(callId);
      const awaiting = current?.state as CallState | null | undefined;
      if (!current || !awaiting || isOutboundState(awaiting) || awaiting.phase.kind !== 'decision.awaiting') return;
      const resumed = resumeDecision(engine, awaiting, reply);
      // The job scheduled with the awaiting state runs at the same time and finds nothing due: this loop
      // goes on with the step due now.
      await commitStep(tx, current, progressOf(resumed.state), resumed.events, later(tx, resumed.state.dueAt), resumed.state.trace.slice(awaiting.trace.length));
    });
  }
}

/**
 * The next job's time, when the step is not due at once. A step due now is run by the loop of the job
 * under way, which stays in the jobs table until it returns: a crash before then reruns it.
 */
const later = (deps: Pick<CallsDeps, 'clock'>, dueAt: number | null): number | null => (dueAt !== null && dueAt > deps.clock.nowMs() ? dueAt : null);
