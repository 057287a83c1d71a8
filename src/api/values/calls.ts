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
  'hangup',
  'voicemail',
  'event',
  'ended',
] as const;
export type CallTraceStep = (typeof CALL_TRACE_STEPS)[number];

/** contract §6: a softphone device is stale after 60 s without a heartbeat (skipped by a ring wave). */
export const DEVICE_STALE_AFTER_SECS = 60;

/**
 * Decision (the spec is silent): a voicemail the caller does not end by hanging up lasts this long
 * (the sandbox scenario has no field for it; `hangupAfterSecs` ends it earlier).
 */
export const VOICEMAIL_DEFAULT_SECS = 30;
