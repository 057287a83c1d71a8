// The flags of a sandbox call (cli.md "Calls you can watch"), as data: `svc calls simulate` and the
// call triggers (`svc trigger call`, `svc trigger call.missed`, …) are the same command, built from
// this one list. Loaded at start-up with the trigger group, so nothing here may import zod. Both the
// calls and the trigger definitions and the run module import it; it imports neither.
import type { FlagDef } from '../../verb.js';

/** The options object both commands hand to runSimulate (durations still as typed; parsed there). */
export interface SimulateOptions {
  to: string;
  from: string;
  answer?: string;
  after?: string;
  duration?: string;
  digits?: string;
  machine?: boolean;
  hangupAfter?: string;
  fastForward?: boolean;
  /** false with --no-wait. */
  wait?: boolean;
}

/** The values of `--answer` besides ids: `first` is whichever leg rings first. */
export const ANSWER_FIRST = 'first';

export const SIMULATE_FLAGS: readonly FlagDef[] = [
  { flags: '--to <number>', help: 'your voice number that is called (id or E.164)', required: true },
  { flags: '--from <e164>', help: 'the caller, E.164', required: true },
  { flags: '--answer <who>', help: `who answers: a route destination (dst_…), a softphone device (dev_…) or "${ANSWER_FIRST}" (the first leg that rings); default nobody` },
  { flags: '--after <duration>', help: 'ringing before the answer, e.g. 5s (with --answer; default 0s)' },
  { flags: '--duration <duration>', help: 'talking after the answer, e.g. 30s (with --answer; default 30s)' },
  { flags: '--digits <keys>', help: 'IVR keys the caller presses, one per menu prompt, e.g. 1#' },
  { flags: '--machine', help: 'a machine picks up a forwarded leg and nobody presses 1 (ends in voicemail)' },
  { flags: '--hangup-after <duration>', help: 'the caller hangs up this long after the call starts, e.g. 10s' },
  { flags: '--fast-forward', help: 'on a manual sandbox clock, advance it step by step until the call ends' },
  { flags: '--no-wait', help: 'print the call at once instead of following it' },
];

export const SIMULATE_DETAILS = [
  'Places a sandbox inbound call and prints its trace as the call engine runs it, one line per step',
  '(time, seconds since the start, step, detail), then the events the call emitted. It follows the',
  'call until its status is final, then 2 more seconds for late steps; with --fast-forward it also',
  'moves the clock past the end of a recorded call to its transcript (10 s, plus 10 s a minute).',
  '-o json prints the final call with its trace; --no-wait prints the call at once. On a manual clock',
  'the call moves only when the clock does: --fast-forward advances it; without it, move it yourself',
  '(svc clock advance 30s).',
].join('\n');
