import type { DomainDeps } from '../deps.js';
import { assertMayChange } from '../test-keys.js';
import { assertCanStartCall } from './call-billing.js';
import type { Actor } from '../actor.js';
import type { NumberRecord } from '../../storage/numbers-repo.js';
import type { CallFilters, CallProgress, CallRecord, StoredTraceEntry } from '../../storage/calls-repo.js';
import type { VoicemailRecord } from '../../storage/voicemails-repo.js';
import type { Page } from '../../../api/schemas/page.js';
import type { SandboxCallBody, TransferCallBody } from '../../../api/schemas/calls.js';
import type { SoftphoneCallBody } from '../../../api/schemas/softphone.js';
import { E164_PATTERN } from '../../../api/schemas/common.js';
import { OUTBOUND_CALL_SIMULATION } from '../../../api/values/calls.js';
import { ServiceError, conflict, notFound, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import { synthesizeRecording } from '../../world/recorder.js';
import { startCall, type CallState } from './call-engine.js';
import {
  JOB_CALL_STEP,
  commitStep,
  isOutboundState,
  routeSnapshot,
  runCallSteps,
  talkSeconds,
  type CallsDeps,
  type OutboundState,
  type RunnerState,
} from './call-runner.js';

// spec: Calls and voicemail, Softphone; contract §6 (Call, Voicemail, transfer, outbound softphone
// calls, call trace), §9 (sandbox calls). The acts a caller asks for; the steps themselves run in
// call-runner.ts as `call.step` jobs.

/** The call's durable jobs (registered by the composition root): a restart resumes every call. */
export function registerCallJobs(deps: DomainDeps): void {
  deps.scheduler.registerOutside(JOB_CALL_STEP, (payload: { callId: string }) => runCallSteps(deps, payload.callId, stepOutbound), 'call steps');
}

// --- opening calls ---------------------------------------------------------------------------------

/** Where a call was placed from: the address the request used (event URLs are built on it). */
export interface PlaceOptions {
  origin?: string;
}

function newCallRecord(actor: Actor, number: NumberRecord, direction: CallRecord['direction'], from: string, to: string, now: number, opts: PlaceOptions): CallRecord {
  return {
    id: newId('call'),
    accountId: actor.account.id,
    numberId: number.id,
    direction,
    from,
    to,
    status: 'ringing',
    startedAt: now,
    answeredAt: null,
    endedAt: null,
    durationSeconds: null,
    answeredBy: null,
    answeredDevice: null,
    outcome: null,
    recordingId: null,
    voicemailId: null,
    // contract §11: the call's mode is the mode of the key that placed it (charges are live only).
    mode: actor.mode,
    origin: opts.origin ?? null,
    state: null,
    trace: [],
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * POST /v1/sandbox/calls (contract §9): an inbound call to one of the account's numbers. The route is
 * snapshotted as the call opens; the call row (status `ringing`, state, trace) and its first
 * `call.step` job, due at once, commit together. The engine then runs on the service clock (with a
 * manual clock, a clock advance walks it).
 *
 * `to` must be a number of this account that is not released — else 400 `validation_error` on
 * `["body","to"]`, exactly as `POST /v1/sandbox/inbound-messages` answers the same case
 * (domain/messages.ts: another account's number is not named as such, so no `not_found` leaks who
 * owns it) — and has the `voice` capability — else 422 `channel_unsupported` on `["body","to"]`, as a
 * number without `sms` answers an inbound text.
 */
export async function placeSandboxCall(deps: CallsDeps, actor: Actor, body: SandboxCallBody, opts: PlaceOptions = {}): Promise<CallRecord> {
  const number = await deps.numbers.findByPhone(actor.account.id, body.to);
  if (!number || number.status === 'released') throw validationError(['body', 'to'], `${body.to} is not a number of this account`);
  if (!number.capabilities.voice) {
    throw new ServiceError('channel_unsupported', `${number.phoneNumber} cannot receive calls: the number has no voice capability`, [
      { path: ['body', 'to'], message: 'no voice capability' },
    ]);
  }
  const now = deps.clock.nowMs();
  const call = newCallRecord(actor, number, 'inbound', body.from, body.to, now, opts);
  const scenario = body.scenario;
  const state = startCall({
    callId: call.id,
    accountId: call.accountId,
    numberId: number.id,
    from: body.from,
    to: body.to,
    startedAt: now,
    route: await routeSnapshot(deps, number.id),
    scenario: {
      answer: scenario.answer
        ? {
            ...(scenario.answer.destinationId !== undefined ? { destinationId: scenario.answer.destinationId } : {}),
            ...(scenario.answer.deviceId !== undefined ? { deviceId: scenario.answer.deviceId } : {}),
            afterSecs: scenario.answer.afterSecs,
            durationSecs: scenario.answer.durationSecs,
          }
        : null,
      digits: scenario.digits,
      machine: scenario.machine,
      hangupAfterSecs: scenario.hangupAfterSecs,
    },
  });
  const record: CallRecord = { ...call, state };
  await deps.uow.write(async (tx) => {
    // contract §11 (call-billing.ts): a live call starts only when its first minute could be paid; 402 → no call, no job.
    await assertCanStartCall(tx, { accountId: call.accountId, mode: actor.mode }, state.call.route?.liveTranscription === true);
    await tx.calls.insert(record);
    await tx.scheduler.schedule(JOB_CALL_STEP, state.dueAt!, { callId: call.id });
  });
  return record;
}

/**
 * POST /v1/webrtc/calls (spec: Softphone; contract §6): the service rings the device, which
 * auto-answers, dials the callee and bridges them. Decision (the contract is silent on the outbound
 * leg): simulated with OUTBOUND_CALL_SIMULATION on the service clock — `ringing` while the callee's
 * phone rings, `in_progress` after `answerAfterSecs`, `completed` after `durationSecs` of talk, with
 * `call.completed` (`direction: outbound`, `answeredDevice` the device). Every failure of the body is
 * reported at once: `from` not a voice number of the account → `["body","from"]`; `deviceId` not a
 * device of the account → `["body","deviceId"]`.
 */
export async function placeSoftphoneCall(deps: CallsDeps, actor: Actor, body: SoftphoneCallBody, opts: PlaceOptions = {}): Promise<CallRecord> {
  const issues: Array<{ path: (string | number)[]; message: string }> = [];
  const number = await deps.numbers.findByPhone(actor.account.id, body.from);
  if (!number || number.status === 'released') issues.push({ path: ['body', 'from'], message: `${body.from} is not a number of this account` });
  else if (!number.capabilities.voice) issues.push({ path: ['body', 'from'], message: `${body.from} has no voice capability` });
  const device = await deps.devices.get(actor.account.id, body.deviceId);
  if (!device) issues.push({ path: ['body', 'deviceId'], message: `no softphone device ${body.deviceId} on this account` });
  if (issues.length > 0) throw new ServiceError('validation_error', issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), issues);

  const now = deps.clock.nowMs();
  const call = newCallRecord(actor, number!, 'outbound', body.from, body.to, now, opts);
  const dueAt = now + OUTBOUND_CALL_SIMULATION.answerAfterSecs * 1000;
  const state: OutboundState = { kind: 'outbound', deviceId: device!.id, phase: 'answer', dueAt };
  const trace: StoredTraceEntry[] = [
    { at: now, step: 'leg.dialed', detail: `softphone ${device!.id} (user ${device!.userId}) rung and auto-answered` },
    { at: now, step: 'leg.dialed', detail: `callee ${body.to} dialed from ${body.from}` },
  ];
  const record: CallRecord = { ...call, state, trace };
  await deps.uow.write(async (tx) => {
    // contract §11 (call-billing.ts): the outbound leg is charged per minute; 402 → no call, no job.
    await assertCanStartCall(tx, { accountId: call.accountId, mode: actor.mode }, false);
    await tx.calls.insert(record);
    await tx.scheduler.schedule(JOB_CALL_STEP, dueAt, { callId: call.id });
  });
  return record;
}

/** One step of an outbound call (inside the step's transaction): the callee answers, or the call ends. */
async function stepOutbound(deps: CallsDeps, call: CallRecord, state: OutboundState): Promise<void> {
  const now = state.dueAt!;
  const trace = [...call.trace];
  const base: CallProgress = {
    status: call.status,
    answeredAt: call.answeredAt,
    endedAt: call.endedAt,
    durationSeconds: call.durationSeconds,
    answeredBy: call.answeredBy,
    answeredDevice: call.answeredDevice,
    outcome: call.outcome,
    recordingId: call.recordingId,
    voicemailId: call.voicemailId,
    state,
    trace,
  };
  if (state.phase === 'answer') {
    trace.push({ at: now, step: 'answered', detail: `by ${call.to}, bridged with softphone ${state.deviceId}` });
    const next: OutboundState = { ...state, phase: 'end', dueAt: now + OUTBOUND_CALL_SIMULATION.durationSecs * 1000 };
    const progress: CallProgress = { ...base, status: 'in_progress', answeredAt: now, answeredBy: call.to, answeredDevice: state.deviceId, state: next, trace };
    return await commitStep(deps, call, progress, [], next.dueAt, trace.slice(call.trace.length));
  }
  if (state.phase !== 'end') return;
  const answeredAt = call.answeredAt ?? now;
  const durationSeconds = talkSeconds(answeredAt, now)!;
  trace.push({ at: now, step: 'event', detail: 'call.completed' });
  trace.push({ at: now, step: 'ended', detail: 'completed' });
  const progress: CallProgress = { ...base, status: 'completed', endedAt: now, durationSeconds, state: null, trace };
  // spec: call.completed — an answered call ends; once. contract §6: answeredDevice.
  const event = {
    type: 'call.completed' as const,
    fields: {
      callId: call.id,
      from: call.from,
      to: call.to,
      answeredAt: new Date(answeredAt).toISOString(),
      endedAt: new Date(now).toISOString(),
      durationSeconds,
      answeredBy: call.answeredBy,
      answeredDevice: call.answeredDevice,
      direction: 'outbound',
    },
  };
  await commitStep(deps, call, progress, [event], null, trace.slice(call.trace.length));
}

// --- transfer --------------------------------------------------------------------------------------

/**
 * POST /v1/calls/{id}/transfer (contract §6): only an `in_progress` call (else 409 `conflict`); `to`
 * is an E.164 number or one of the account's softphone devices (else 400 on `["body","to"]`). The
 * transfer is recorded in the trace and `answeredBy`/`answeredDevice` move to the new party.
 *
 * Decision (the contract is silent on the call's end): the new party talks as long again as the
 * first one was to — the scenario's `durationSecs` for an inbound call, OUTBOUND_CALL_SIMULATION's
 * for an outbound one — from the transfer on; a caller's scheduled hang-up (`hangupAfterSecs`) still
 * ends the call when it comes first. `answeredAt` stays the first answer, so `durationSeconds` (and
 * the voice minutes) cover the whole connected time, before and after the transfer.
 */
export async function transferCall(deps: CallsDeps, actor: Actor, id: string, body: TransferCallBody): Promise<CallRecord> {
  return await deps.uow.write(async (tx) => {
    const call = await getCall(tx, actor, id);
    // contract §2: a live call (live usage, a live caller on the line) is a live key's to transfer.
    assertMayChange(actor, call.mode, `call ${id}`);
    const state = call.state as RunnerState | null;
    if (call.status !== 'in_progress' || !state || state.dueAt === null) throw conflict(`call ${id} is ${call.status}: only a call in progress can be transferred`);
    let answeredBy: string;
    let answeredDevice: string | null;
    if (E164_PATTERN.test(body.to)) {
      answeredBy = body.to;
      answeredDevice = null;
    } else {
      const device = await tx.devices.get(actor.account.id, body.to);
      if (!device) throw validationError(['body', 'to'], `give an E.164 number or the id of one of this account's softphone devices; ${body.to} is neither`);
      answeredBy = device.id;
      answeredDevice = device.id;
    }
    const now = tx.clock.nowMs();
    const trace = [...call.trace, { at: now, step: 'transfer', detail: `from ${call.answeredBy ?? 'nobody'} to ${answeredDevice ? `softphone ${answeredDevice}` : answeredBy}` }];
    let next: RunnerState;
    if (isOutboundState(state)) {
      next = { ...state, phase: 'end', dueAt: now + OUTBOUND_CALL_SIMULATION.durationSecs * 1000 };
    } else {
      next = transferredInbound(state, now, answeredBy, answeredDevice, trace);
    }
    const progress: CallProgress = {
      status: call.status,
      answeredAt: call.answeredAt,
      endedAt: call.endedAt,
      durationSeconds: call.durationSeconds,
      answeredBy,
      answeredDevice,
      outcome: call.outcome,
      recordingId: call.recordingId,
      voicemailId: call.voicemailId,
      state: next,
      trace,
    };
    await tx.calls.update(call.id, progress, now);
    // The job of the old end finds nothing due and does nothing; this one runs the new end.
    await tx.scheduler.schedule(JOB_CALL_STEP, next.dueAt!, { callId: call.id });
    return { ...call, ...progress, updatedAt: now };
  });
}

/** The engine's state after a transfer: the new party answers now and talks the scenario's duration. */
function transferredInbound(state: CallState, now: number, answeredBy: string, answeredDevice: string | null, trace: StoredTraceEntry[]): CallState {
  const talk = (state.talkSecs ?? state.call.scenario.answer?.durationSecs ?? 0) * 1000;
  const hangup = state.call.scenario.hangupAfterSecs;
  const hangupAt = hangup === null ? null : state.call.startedAt + hangup * 1000;
  const end = now + talk;
  const phase: CallState['phase'] = hangupAt !== null && hangupAt < end ? { kind: 'hangup' } : { kind: 'completed' };
  return {
    ...state,
    answeredBy,
    answeredDevice,
    phase,
    dueAt: phase.kind === 'hangup' ? Math.max(hangupAt!, now) : end,
    trace: trace as CallState['trace'],
  };
}

// --- reads -----------------------------------------------------------------------------------------

export async function getCall(deps: Pick<CallsDeps, 'calls'>, actor: Actor, id: string): Promise<CallRecord> {
  const call = await deps.calls.get(actor.account.id, id);
  // spec: Authentication 6 — another account's call is not_found.
  if (!call) throw notFound('call');
  return call;
}

export async function listCalls(deps: Pick<CallsDeps, 'calls'>, actor: Actor, filters: CallFilters, limit: number, cursor?: string): Promise<Page<CallRecord>> {
  return await deps.calls.list(actor.account.id, filters, limit, cursor);
}

/**
 * GET /v1/calls/{id}/recording (contract §6): `audio/wav`; 404 `not_found` when the call was not
 * recorded. The audio comes from the simulated recorder (world/recorder.ts), as long as the talk: the
 * call's duration once it ended, the talk so far while it is in progress.
 */
export async function callRecording(deps: Pick<CallsDeps, 'calls' | 'clock'>, actor: Actor, id: string): Promise<Buffer> {
  const call = await getCall(deps, actor, id);
  if (!call.recordingId) throw new ServiceError('not_found', `call ${id} was not recorded (its route had recordCalls off, or nobody answered)`);
  const secs = call.durationSeconds ?? talkSeconds(call.answeredAt, deps.clock.nowMs()) ?? 0;
  return synthesizeRecording(call.recordingId, secs);
}

export async function getVoicemail(deps: Pick<CallsDeps, 'voicemails'>, actor: Actor, id: string): Promise<VoicemailRecord> {
  const vm = await deps.voicemails.get(actor.account.id, id);
  if (!vm) throw notFound('voicemail');
  return vm;
}

export async function listVoicemails(deps: Pick<CallsDeps, 'voicemails'>, actor: Actor, limit: number, cursor?: string): Promise<Page<VoicemailRecord>> {
  return await deps.voicemails.list(actor.account.id, limit, cursor);
}

/** GET /v1/voicemails/{id}/audio (contract §6): the simulated recorder's WAV, as long as the voicemail. */
export async function voicemailAudio(deps: Pick<CallsDeps, 'voicemails'>, actor: Actor, id: string): Promise<Buffer> {
  const vm = await getVoicemail(deps, actor, id);
  return synthesizeRecording(vm.id, vm.durationSeconds);
}

