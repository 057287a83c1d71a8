import type { Actor } from '../actor.js';
import { assertMayChange } from '../test-keys.js';
import { conflict } from '../../errors.js';
import { SANDBOX_CALL_LIMITS } from '../../../api/values/calls.js';
import type { CallState, Phase } from './call-engine.js';
import { JOB_CALL_STEP, isOutboundState, progressOf, type CallsDeps, type RunnerState } from './call-runner.js';
import { getCall } from './calls.js';
import type { CallRecord } from '../../storage/calls-repo.js';

// Local service only: the sandbox caller's acts during a call placed with
// POST /v1/sandbox/calls — keys pressed, a hang-up — for the console's phone and for
// POST /v1/sandbox/calls/{id}/digits and /hangup alike. Keys go where the scenario's `digits` go
// (contract §9: the IVR reads them one per menu prompt, in order): appended to them, so a key pressed
// before the menu is heard is read at its prompt, exactly as `svc calls simulate --digits` does; while
// the menu waits for a key, the first one pressed is read at once (the engine's step for a digit
// replaces the digit timeout) and the rest at the prompts that follow. The durable job runs the step,
// as a transfer's does (calls.ts).

/** Where a key still reaches the IVR: before its menu, or while the menu waits for a digit. */
const BEFORE_THE_MENU: ReadonlySet<Phase['kind']> = new Set(['blocklist', 'decision', 'decision.awaiting', 'route', 'ivr.prompt']);

async function inboundInProgress(tx: CallsDeps, actor: Actor, id: string): Promise<{ call: Awaited<ReturnType<typeof getCall>>; state: CallState }> {
  const call = await getCall(tx, actor, id);
  assertMayChange(actor, call.mode, `call ${id}`);
  const state = call.state as RunnerState | null;
  if (call.direction !== 'inbound' || !state || isOutboundState(state) || state.dueAt === null || state.endedAt !== null) {
    throw conflict(`call ${id} is ${call.status}: only a sandbox call still under way has a caller on the line`);
  }
  return { call, state };
}

async function commit(tx: CallsDeps, actor: Actor, callId: string, state: CallState): Promise<CallRecord> {
  const now = tx.clock.nowMs();
  await tx.calls.update(callId, progressOf(state), now);
  // A job left at the old time finds nothing due then and does nothing; this one runs the step now.
  await tx.scheduler.schedule(JOB_CALL_STEP, state.dueAt!, { callId });
  return await getCall(tx, actor, callId);
}

/**
 * The caller presses `digits` in order (one or more of 0-9, * and #, checked by the caller's schema);
 * call inside a write. Returns the call as the presses leave it (the step they cause runs next). 409
 * once the IVR is behind the call, or past the keys a sandbox call takes.
 */
export async function pressCallerKeys(tx: CallsDeps, actor: Actor, id: string, digits: string): Promise<CallRecord> {
  const { call, state } = await inboundInProgress(tx, actor, id);
  const waiting = state.phase.kind === 'ivr.input' && state.phase.digit === null;
  if (!waiting && !BEFORE_THE_MENU.has(state.phase.kind)) throw conflict(`call ${id} is past its IVR menu: a key pressed now reaches no one`);
  // contract §9: a scenario holds at most maxDigits keys; the keys pressed during the call count with them.
  const pressed = state.call.scenario.digits.length;
  if (pressed + digits.length > SANDBOX_CALL_LIMITS.maxDigits) {
    throw conflict(`call ${id} has had ${pressed} keys and a sandbox call takes at most ${SANDBOX_CALL_LIMITS.maxDigits}: ${digits.length} more is too many`);
  }
  const next: CallState = { ...state, call: { ...state.call, scenario: { ...state.call.scenario, digits: state.call.scenario.digits + digits } } };
  if (waiting) {
    next.phase = { kind: 'ivr.input', digit: digits[0]! };
    next.dueAt = tx.clock.nowMs();
  }
  return await commit(tx, actor, call.id, next);
}

/**
 * The caller hangs up, inside a write: the engine's hang-up step runs next (answered: completed; in
 * voicemail: the message is kept; else missed). Returns the call as the hang-up leaves it.
 */
export async function hangUpCaller(tx: CallsDeps, actor: Actor, id: string): Promise<CallRecord> {
  const { call, state } = await inboundInProgress(tx, actor, id);
  return await commit(tx, actor, call.id, { ...state, phase: { kind: 'hangup' }, dueAt: tx.clock.nowMs() });
}
