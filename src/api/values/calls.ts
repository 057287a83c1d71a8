// Call facts as plain values (no zod): the call engine (server/domain/voice/call-engine.ts) and, later,
// the Call and trace schemas build on these. contract §6 (Call, call engine, call trace), §9.

/** contract §6: Call `status`. */
export const CALL_STATUSES = ['ringing', 'in_progress', 'completed', 'missed', 'blocked', 'failed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** spec: Event catalog, `call.missed` outcome; contract §6. */
export const CALL_MISSED_OUTCOMES = ['missed', 'voicemail'] as const;
export type CallMissedOutcome = (typeof CALL_MISSED_OUTCOMES)[number];

/** contract §6: Call `direction`. */
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;

/**
 * contract §6 (call trace, extension): the `step` of a trace entry, one per kind of decision the
 * engine records, in the order the engine can take them.
 */
export const CALL_TRACE_STEPS = [
  'blocklist',
  'decision',
  'route',
  'notice',
  'ivr.prompt',
  'ivr.key',
  'ivr.invalid',
  'ivr.timeout',
  'ivr.fallback',
  'leg.dialed',
  'leg.skipped',
  'ring.no_answer',
  'forward',
  'machine',
  'answered',
  'recording',
  'transcript.live',
  'transfer',
  'hangup',
  'voicemail',
  'event',
  'ended',
  'transcript',
] as const;
export type CallTraceStep = (typeof CALL_TRACE_STEPS)[number];

/** contract §6: a softphone device is stale after 60 s without a heartbeat (skipped by a ring wave). */
export const DEVICE_STALE_AFTER_SECS = 60;

/**
 * Decision (the spec is silent): a voicemail the caller does not end by hanging up lasts this long
 * (the sandbox scenario has no field for it; `hangupAfterSecs` ends it earlier).
 */
export const VOICEMAIL_DEFAULT_SECS = 30;

/** spec: Event catalog — `transcriptStatus` of `call.transcript` and `voicemail.received`. */
export const TRANSCRIPT_STATUSES = ['available', 'failed'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];

/**
 * The simulated transcriber (server/world/transcriber.ts). Decisions (the spec is silent):
 * - a recording shorter than `minSpeechSecs` holds no speech: its transcription `failed` (so a
 *   sandbox call answered for 1 s, or a voicemail hung up after 1 s, shows the failed path);
 * - a transcript has one turn per `secsPerTurn` of audio (at least one), at most `maxTurns` — this
 *   also bounds the live-transcription steps of a long call (two per turn: interim, then final).
 */
export const TRANSCRIPTION = {
  minSpeechSecs: 2,
  secsPerTurn: 6,
  maxTurns: 24,
} as const;

/** The speakers of a transcript: the caller, and whoever answered (spec: `call.transcript.delta` speaker). */
export const TRANSCRIPT_SPEAKERS = ['caller', 'agent'] as const;
export type TranscriptSpeaker = (typeof TRANSCRIPT_SPEAKERS)[number];

/**
 * spec: Event catalog — `call.transcript` comes "seconds to minutes after [the call] ends". Decision:
 * `baseSecs` after the end plus `perMinuteSecs` per started minute of recording, at most `maxSecs`
 * (a 1-minute call: 20 s; a 29-minute call or longer: 5 minutes).
 */
export const CALL_TRANSCRIPT_DELAY = {
  baseSecs: 10,
  perMinuteSecs: 10,
  maxSecs: 300,
} as const;

/** Seconds after a recorded call ends when its `call.transcript` step falls due (CALL_TRANSCRIPT_DELAY). */
export function callTranscriptDelaySecs(durationSecs: number): number {
  const d = CALL_TRANSCRIPT_DELAY;
  return Math.min(d.maxSecs, d.baseSecs + d.perMinuteSecs * Math.ceil(Math.max(0, durationSecs) / 60));
}

/**
 * contract §6: where a call's recording and a voicemail's audio are served. Relative to the service's
 * base URL (the engine does not know it); the API serves them.
 */
export const callRecordingPath = (callId: string) => `/v1/calls/${callId}/recording`;
export const voicemailAudioPath = (voicemailId: string) => `/v1/voicemails/${voicemailId}/audio`;

/**
 * contract §9: the sandbox call scenario's bounds. Decision (the contract is silent on bounds): a
 * simulated call lasts at most a day, and the caller presses at most 32 keys.
 */
export const SANDBOX_CALL_LIMITS = {
  maxSecs: 86_400,
  maxDigits: 32,
} as const;
/** The keys a caller can press (spec: IVR object). */
export const DIGITS_PATTERN = /^[0-9*#]*$/;

/** contract §9: how long an answered sandbox call talks unless its scenario says (`answer.durationSecs`). */
export const SANDBOX_TALK_SECS_DEFAULT = 30;

/**
 * contract §6 (call evaluation) and cli.md "Calls as tests". Decisions (the spec is silent):
 * - `defaultFrom`: the caller when none is given (cli.md's default);
 * - `routeOnlyTo`: the number called when only a route is given (the reserved test number, never sold);
 * - an answered call talks SANDBOX_TALK_SECS_DEFAULT, as a sandbox call's answer does by default
 *   (`hangupAfterSecs` ends it sooner);
 * - `maxPickups` parties in `answer`, `maxPresses` keys in `digits` (a sandbox call's key bound);
 * - a run's coverage lists at most `maxBranches` branches, each id at most `branchIdMax` characters
 *   (a route of 12 IVR keys ringing 10 destinations each has about 150).
 */
export const CALL_EVALUATION = {
  defaultFrom: '+15005550100',
  routeOnlyTo: '+15005550006',
  maxPickups: 50,
  maxPresses: SANDBOX_CALL_LIMITS.maxDigits,
  maxBranches: 1000,
  /** The calls one evaluate-batch request carries. */
  maxBatch: 100,
  branchIdMax: 300,
} as const;

/** One key pressed at a menu prompt, or `""` (silent: the prompt times out). */
export const PRESS_PATTERN = /^[0-9*#]?$/;

/**
 * A run's coverage as a percentage with one decimal, rounded down (a run that missed a branch never
 * reads 100); an empty route graph is fully covered.
 */
export const coveragePercent = (covered: number, total: number): number => (total === 0 ? 100 : Math.floor((covered * 1000) / total) / 10);

/**
 * contract §6: the blocklist auto-suggests a caller after this many inbound calls from it within the
 * window, each ended unanswered or shorter than `shortCallSecs`.
 */
export const BLOCK_SUGGESTION = {
  calls: 5,
  windowSecs: 3600,
  shortCallSecs: 5,
} as const;

/** spec: Blocked number — `reason` is free text. Decision: at most 500 characters. */
export const BLOCK_REASON_MAX = 500;

/** contract §6: softphone presence values and the token's lifetime (wall-clock, like signatures). */
export const DEVICE_PRESENCES = ['online', 'offline'] as const;
export type DevicePresence = (typeof DEVICE_PRESENCES)[number];
export const DEVICE_TOKEN_TTL_SECS = 600;
/** Decision (contract §6 is silent): device `userId` and `label` lengths. */
export const DEVICE_USER_ID_MAX = 200;
export const DEVICE_LABEL_MAX = 80;

/**
 * Decision (contract §6 is silent on the outbound leg): the simulated callee of an outbound call
 * answers after `answerAfterSecs` and hangs up `durationSecs` later (service clock), so an outbound
 * call is `in_progress` (transferable) for that long. A transfer to another party keeps the call in
 * progress for the same length again.
 */
export const OUTBOUND_CALL_SIMULATION = {
  answerAfterSecs: 3,
  durationSecs: 60,
} as const;
