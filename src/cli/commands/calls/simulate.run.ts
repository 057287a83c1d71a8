// `svc calls simulate` / `svc trigger call`: places a sandbox call (contract §9) and follows it,
// printing the engine's trace as it grows (contract §6, call trace) and then the events the call
// emitted, read from the events feed (contract §10) from the position it had before the call.
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { CancelledError, CliError, UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { interruptSignal, pause } from '../../long-running.js';
import { printOne } from '../../print-resource.js';
import { requireE164 } from '../../phone-numbers.js';
import type { ApiClient } from '../../../api/client/client.js';
import { getCall, getCallTrace } from '../../../api/resources/calls.js';
import { listEvents } from '../../../api/resources/events.js';
import { advanceClock, getClock } from '../../../api/resources/sandbox.js';
import { placeSandboxCall } from '../../../api/resources/sandbox-calls.js';
import type { Call, CallScenarioInput } from '../../../api/schemas/calls.js';
import type { EventFeedItem } from '../../../api/schemas/events.js';
import { DIGITS_PATTERN, SANDBOX_CALL_LIMITS, callTranscriptDelaySecs, type CallStatus } from '../../../api/values/calls.js';
import { summarizeEvent } from '../events/summary.js';
import { CALL_COLUMNS } from './columns.js';
import { numberAsE164 } from './number-e164.js';
import { ANSWER_FIRST, type SimulateOptions } from './simulate-flags.js';
import { traceLine, wantsLines, type TraceEntry } from './trace-lines.js';

/** contract §6: the statuses a call does not leave. */
export const FINAL_CALL_STATUSES: ReadonlySet<CallStatus> = new Set(['completed', 'missed', 'blocked', 'failed']);

/**
 * How a call is followed. It ends when the service says nothing more is to come (the trace's
 * `complete`: the status is final and no step is due), at once, with no quiet period to wait out.
 * The one step after a final status is a recorded call's transcript, due
 * `callTranscriptDelaySecs` after the end (spec: "seconds to minutes after it ends"); with
 * --fast-forward the clock is moved there, and no further.
 */
export const FOLLOW = {
  pollMs: 500,
  /** Fast-forward steps: 1 s while the trace grows, doubling up to this while it is quiet. */
  maxStepSecs: 10,
} as const;

/** The event types a call can emit (spec: Event catalog). */
const CALL_EVENT_TYPES = ['call.*', 'voicemail.received'];

export async function runSimulate(ctx: CliContext, opts: SimulateOptions): Promise<void> {
  const scenario = scenarioOf(opts);
  const from = requireE164(opts.from, '--from');
  const client = await ctx.client();
  // --dry-run: the number is still looked up, so the request shown is the one that would be sent.
  const to = await numberAsE164(await ctx.readClient(), opts.to, '--to');
  if (opts.wait === false || client.dryRun) {
    return printOne(ctx, await placeSandboxCall(client, { from, to, scenario }), CALL_COLUMNS);
  }
  // The feed's head before the call: the call's events are the ones after it.
  const head = (await listEvents(client, { after: 'now', limit: 1 })).cursor;
  const manual = (await getClock(client)).mode === 'manual';
  const placed = await placeSandboxCall(client, { from, to, scenario });
  const lines = wantsLines(ctx);
  if (ctx.io.stderrTTY) notice(ctx, `call ${placed.id}: ${placed.from} → ${placed.to}`);
  const fastForward = manual && opts.fastForward === true;
  if (manual && !fastForward) notice(ctx, 'the service clock is manual: the call moves only when the clock does (svc clock advance 30s, or --fast-forward)');
  if (!manual && opts.fastForward && ctx.io.stderrTTY) notice(ctx, 'the service clock runs on its own; nothing to fast-forward');

  const { call, trace } = await follow(ctx, client, placed, { fastForward, pollMs: manual && !fastForward ? 1_000 : FOLLOW.pollMs }, (entry) => {
    if (lines) ctx.io.stdout.write(`${traceLine(entry, placed.startedAt)}\n`);
  });
  if (!lines) return printOne(ctx, { ...call, trace }, [...CALL_COLUMNS, 'trace']);
  const events = await eventsOf(client, head, call.id);
  ctx.io.stdout.write(events.length ? 'events:\n' : 'events: none\n');
  for (const e of events) ctx.io.stdout.write(`  ${e.createdAt.slice(11, 19)}  ${e.type.padEnd(20)}  ${e.id}  ${summarizeEvent(e)}\n`);
}

/** The scenario the flags describe; each bad value is a usage error naming its flag. */
export function scenarioOf(opts: SimulateOptions): CallScenarioInput {
  const secs = (value: string | undefined, flag: string): number | undefined => {
    if (value === undefined) return undefined;
    let n: number;
    try {
      n = parseDuration(value, flag);
    } catch (err) {
      throw new UsageError(`${flag}: ${(err as Error).message}`, flag);
    }
    if (n > SANDBOX_CALL_LIMITS.maxSecs) throw new UsageError(`${flag}: at most ${SANDBOX_CALL_LIMITS.maxSecs} seconds (a day)`, flag);
    return n;
  };
  const afterSecs = secs(opts.after, '--after');
  const durationSecs = secs(opts.duration, '--duration');
  const who = opts.answer?.trim();
  let answer: CallScenarioInput['answer'] = null;
  if (who === undefined || who === '') {
    if (afterSecs !== undefined || durationSecs !== undefined) {
      const flag = afterSecs !== undefined ? '--after' : '--duration';
      throw new UsageError(`${flag}: says when the call is answered; give --answer too`, flag);
    }
  } else {
    const leg = who === ANSWER_FIRST ? {} : who.startsWith('dst_') ? { destinationId: who } : who.startsWith('dev_') ? { deviceId: who } : undefined;
    if (!leg) throw new UsageError(`--answer: "${who}" is not a destination id (dst_…), a device id (dev_…) or "${ANSWER_FIRST}"`, '--answer');
    answer = { ...leg, ...(afterSecs !== undefined ? { afterSecs } : {}), ...(durationSecs !== undefined ? { durationSecs } : {}) };
  }
  const digits = opts.digits ?? '';
  if (!DIGITS_PATTERN.test(digits)) throw new UsageError(`--digits: "${digits}" has a key other than 0-9, * and #`, '--digits');
  if (digits.length > SANDBOX_CALL_LIMITS.maxDigits) throw new UsageError(`--digits: at most ${SANDBOX_CALL_LIMITS.maxDigits} keys`, '--digits');
  return { answer, digits, machine: opts.machine === true, hangupAfterSecs: secs(opts.hangupAfter, '--hangup-after') ?? null };
}

interface FollowOptions {
  fastForward: boolean;
  pollMs: number;
}

/** Reads the call and its trace until the call is final and the trace stops growing; hands each new step to `onStep`. */
async function follow(ctx: CliContext, client: ApiClient, placed: Call, opts: FollowOptions, onStep: (e: TraceEntry) => void): Promise<{ call: Call; trace: TraceEntry[] }> {
  const signal = interruptSignal(ctx);
  let call = placed;
  let trace: TraceEntry[] = [];
  let tailDone = !opts.fastForward;
  let stepSecs = 1;
  let advancedSecs = 0;
  for (;;) {
    // The call first: a final status read before the trace means the trace holds the end.
    call = await getCall(client, placed.id);
    const { data: latest, complete } = await getCallTrace(client, placed.id);
    const grew = latest.length > trace.length;
    for (const entry of latest.slice(trace.length)) onStep(entry);
    trace = latest;
    // Every event of the call was committed with its step, so the events feed has them all. The call
    // was read before the trace: read again if the end came in between.
    if (complete) return { call: FINAL_CALL_STATUSES.has(call.status) ? call : await getCall(client, placed.id), trace };
    if (FINAL_CALL_STATUSES.has(call.status)) {
      // Only a recorded call has a late step (its transcript); moving the clock for nothing would
      // age everything else in the sandbox (device heartbeats, other calls).
      if (!tailDone && call.recordingId !== null) {
        const tail = callTranscriptDelaySecs(call.durationSeconds ?? 0);
        await advanceClock(client, tail);
        advancedSecs += tail;
        tailDone = true;
        continue;
      }
    } else if (opts.fastForward) {
      stepSecs = grew ? 1 : Math.min(FOLLOW.maxStepSecs, stepSecs * 2);
      if (advancedSecs > SANDBOX_CALL_LIMITS.maxSecs) {
        throw new CliError(`call ${call.id} is still ${call.status} after the clock moved ${advancedSecs} s; stopped fast-forwarding (svc calls get ${call.id} --trace)`);
      }
      if (signal.aborted) break;
      await advanceClock(client, stepSecs);
      advancedSecs += stepSecs;
      continue;
    }
    if (!(await pause(opts.pollMs, signal))) break;
  }
  throw new CancelledError(`stopped following call ${placed.id}, which goes on (svc calls get ${placed.id} --trace)`);
}

/** The events after `head` that belong to the call, in feed order. */
async function eventsOf(client: ApiClient, head: string, callId: string): Promise<EventFeedItem[]> {
  const found: EventFeedItem[] = [];
  let after = head;
  for (;;) {
    const page = await listEvents(client, { after, types: CALL_EVENT_TYPES, limit: 100 });
    found.push(...page.data.filter((e) => (e as Record<string, unknown>).callId === callId));
    if (!page.hasMore || page.cursor === after) return found;
    after = page.cursor;
  }
}
