import { z } from 'zod';
import { E164, NullableTimestamp, Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import {
  CALL_DIRECTIONS,
  CALL_MISSED_OUTCOMES,
  CALL_STATUSES,
  CALL_TRACE_STEPS,
  DIGITS_PATTERN,
  SANDBOX_CALL_LIMITS,
  SANDBOX_TALK_SECS_DEFAULT,
  TRANSCRIPT_STATUSES,
} from '../values/calls.js';

// contract §6 (Call, Voicemail, call trace), §9 (sandbox calls); spec: Calls and voicemail.

export const CallStatus = z.enum(CALL_STATUSES);
export const CallDirection = z.enum(CALL_DIRECTIONS);
export const TranscriptStatus = z.enum(TRANSCRIPT_STATUSES);

export const CallSchema = z
  .object({
    id: z.string(),
    numberId: z.string().describe('the account number the call came in on (inbound) or was placed from (outbound)'),
    direction: CallDirection,
    from: z.string(),
    to: z.string(),
    status: CallStatus,
    startedAt: Timestamp,
    answeredAt: NullableTimestamp,
    endedAt: NullableTimestamp,
    durationSeconds: z.number().int().min(0).nullable().describe('seconds from answer to end; null until an answered call ends'),
    answeredBy: z.string().nullable().describe('the destination (E.164, SIP URI or device id) that answered'),
    answeredDevice: z.string().nullable().describe('the softphone device that answered, or null'),
    outcome: z.enum(CALL_MISSED_OUTCOMES).nullable().describe('for a missed call: `missed`, or `voicemail`'),
    recordingId: z.string().nullable(),
    voicemailId: z.string().nullable(),
  })
  .meta({ id: 'Call' });
export type Call = z.infer<typeof CallSchema>;
export const CallPage = pageOf(CallSchema);

export const ListCallsQuery = ListQuerySchema.extend({
  status: CallStatus.optional(),
  direction: CallDirection.optional(),
});
export type ListCallsQuery = z.infer<typeof ListCallsQuery>;

/** contract §6 (call trace, extension): one decision of the call engine. */
export const CallTraceEntrySchema = z
  .object({ at: Timestamp, step: z.enum(CALL_TRACE_STEPS), detail: z.string() })
  .meta({ id: 'CallTraceEntry' });
export const CallTraceSchema = z
  .object({
    data: z.array(CallTraceEntrySchema),
    // A follower (`svc calls simulate`) stops when the service says so, not after a quiet period.
    complete: z
      .boolean()
      .describe('true once nothing more is to come: the status is final and no step (a recorded call\'s transcript) is still due, so the trace and the call\'s events will not grow'),
  })
  .meta({ id: 'CallTrace' });
export type CallTrace = z.infer<typeof CallTraceSchema>;

/** contract §6: `{to: E.164 | deviceId}`. */
export const TransferCallBody = z
  .strictObject({
    to: z
      .string()
      .min(1)
      .max(200)
      .describe('an E.164 number, or the id of one of the account\'s softphone devices (`dev_…`)'),
  })
  .meta({ id: 'TransferCallBody' });
export type TransferCallBody = z.infer<typeof TransferCallBody>;

export const VoicemailSchema = z
  .object({
    id: z.string(),
    callId: z.string(),
    numberId: z.string(),
    from: z.string(),
    to: z.string(),
    durationSeconds: z.number().int().min(0),
    transcript: z.string().nullable(),
    transcriptStatus: TranscriptStatus,
    recordingUrl: z.string(),
    receivedAt: Timestamp,
  })
  .meta({ id: 'Voicemail' });
export type Voicemail = z.infer<typeof VoicemailSchema>;
export const VoicemailPage = pageOf(VoicemailSchema);
export const ListVoicemailsQuery = ListQuerySchema;

const Secs = z.number().int().min(0).max(SANDBOX_CALL_LIMITS.maxSecs);

/** contract §9: what the outside world does during a sandbox call. */
export const CallScenarioSchema = z
  .strictObject({
    answer: z
      .strictObject({
        destinationId: z.string().min(1).max(200).optional(),
        deviceId: z.string().min(1).max(200).optional(),
        afterSecs: Secs.default(0).describe('seconds of ringing before the answer'),
        durationSecs: Secs.default(SANDBOX_TALK_SECS_DEFAULT).describe('seconds talking after the answer'),
      })
      .refine((a) => !(a.destinationId && a.deviceId), { message: 'give destinationId or deviceId, not both' })
      .nullable()
      .default(null)
      .describe('who answers and when; null (default): nobody answers'),
    digits: z
      .string()
      .max(SANDBOX_CALL_LIMITS.maxDigits)
      .regex(DIGITS_PATTERN, 'digits are 0-9, * and #')
      .default('')
      .describe('IVR keys the caller presses, one per menu prompt'),
    machine: z.boolean().default(false).describe('a machine picks up a forwarded leg and nobody presses 1'),
    hangupAfterSecs: Secs.nullable().default(null).describe('the caller hangs up this long after the call starts'),
  })
  .meta({ id: 'CallScenario' });
export type CallScenarioInput = z.input<typeof CallScenarioSchema>;

export const SandboxCallBody = z
  .strictObject({
    from: E164.describe('the caller'),
    to: E164.describe('one of the account\'s voice numbers'),
    scenario: CallScenarioSchema.default({ answer: null, digits: '', machine: false, hangupAfterSecs: null }),
  })
  .meta({ id: 'SandboxCallBody' });
export type SandboxCallBody = z.infer<typeof SandboxCallBody>;

/** Our extension (local service only): the keys the sandbox caller presses during a call, in order. */
export const SandboxCallDigitsBody = z
  .strictObject({
    digits: z
      .string()
      .min(1)
      .max(SANDBOX_CALL_LIMITS.maxDigits)
      .regex(DIGITS_PATTERN, 'digits are 0-9, * and #')
      .describe('the keys pressed, in order: one or more of 0-9, * and #'),
  })
  .meta({ id: 'SandboxCallDigitsBody' });
export type SandboxCallDigitsBody = z.infer<typeof SandboxCallDigitsBody>;
