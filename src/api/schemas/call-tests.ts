import { z } from 'zod';
import { E164, Timestamp } from './common.js';
import { PutRouteBody } from './routes.js';
import { CallStatus } from './calls.js';
import { CALL_EVALUATION as E, CALL_MISSED_OUTCOMES, CALL_TRACE_STEPS, PRESS_PATTERN, SANDBOX_CALL_LIMITS } from '../values/calls.js';

// contract §6 (call evaluation, extension, local service only); cli.md "Calls as tests": a call run
// by the call engine on virtual time with nothing stored, and the last run's coverage per number.

const Secs = z.number().int().min(0).max(SANDBOX_CALL_LIMITS.maxSecs);

/** The decision webhook's scripted answer: a response, or none within its timeout. */
export const CallEvaluationDecision = z
  .union([
    z.strictObject({
      status: z.number().int().min(100).max(599).describe('the HTTP status the webhook answers'),
      body: z.unknown().optional().describe('its JSON body (`{"action":"reject"}`, `{"action":"forward","to":"+1…"}`; anything else runs the normal route)'),
    }),
    z.strictObject({ timeout: z.literal(true).describe('the webhook does not answer within its `timeoutMs`') }),
  ])
  .meta({ id: 'CallEvaluationDecision' });

/** The script of one call: the outside world as the caller and the route's parties play it. */
const callScript = {
  from: E164.default(E.defaultFrom).describe(`the caller (default ${E.defaultFrom})`),
  digits: z
    .array(z.string().regex(PRESS_PATTERN, 'must be one key (0-9, * or #), or "" for none'))
    .max(E.maxPresses)
    .default([])
    .describe('the key the caller presses at each menu prompt, in order; `""` stays silent (that prompt times out); past the list the caller is silent'),
  answer: z
    .record(z.string().min(1).max(200), Secs)
    .refine((a) => Object.keys(a).length <= E.maxPickups, { message: `at most ${E.maxPickups} parties` })
    .default({})
    .describe("who picks up and after how many seconds of ringing: a destination (E.164, SIP URI or device id) or a destination's label → seconds; a leg named nowhere rings out"),
  decision: CallEvaluationDecision.optional().describe("the decision webhook's answer, when the route has one enabled; absent: it times out"),
  hangupAfterSecs: Secs.nullable().optional().describe('the caller hangs up this long after the call starts, if nothing ended it before'),
};

/** Where the call goes: a number of the account and its saved route, or a route document, or both. */
const callTarget = {
  numberId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("one of the account's voice numbers, by id (`num_…`) or E.164: the call is to it, and its saved route runs unless `route` is given"),
  route: PutRouteBody.optional().describe('a route document (the `PUT /v1/numbers/{id}/route` body) to run instead of the saved one; checked as that PUT checks it, never saved'),
};

export const CallEvaluationBody = z.strictObject({ ...callTarget, ...callScript }).meta({ id: 'CallEvaluationBody' });
export type CallEvaluationBody = z.infer<typeof CallEvaluationBody>;
export type CallEvaluationInput = z.input<typeof CallEvaluationBody>;

export const CallScriptBody = z.strictObject(callScript).meta({ id: 'CallScript' });
export type CallScriptBody = z.infer<typeof CallScriptBody>;

/** Our extension: many scripted calls to one target, each evaluated as POST /v1/sandbox/calls/evaluate evaluates it. */
export const CallEvaluationBatchBody = z
  .strictObject({
    ...callTarget,
    calls: z
      .array(CallScriptBody)
      .min(1)
      .max(E.maxBatch)
      .describe(`the calls' scripts (1 to ${E.maxBatch}), each as \`/evaluate\`'s body has it; answered in this order`),
  })
  .meta({ id: 'CallEvaluationBatchBody' });
export type CallEvaluationBatchBody = z.infer<typeof CallEvaluationBatchBody>;
export type CallEvaluationBatchInput = z.input<typeof CallEvaluationBatchBody>;

export const CallBranchSchema = z
  .object({
    id: z.string().describe('`blocked`, `decision.reject|forward|failopen`, `ivr.key:D`, `ivr.invalid`, `ivr.timeout`, `ivr.fallback`, `answer:DEST`, `noanswer:SET`, `voicemail`'),
    taken: z.boolean(),
  })
  .meta({ id: 'CallBranch' });
export type CallBranch = z.infer<typeof CallBranchSchema>;

export const CallEvaluationSchema = z
  .object({
    status: CallStatus.describe('the final status: `completed`, `missed` or `blocked`'),
    outcome: z.enum(CALL_MISSED_OUTCOMES).nullable().describe("a missed call's `call.missed` outcome: `voicemail` or `missed`"),
    answeredBy: z.string().nullable().describe('the destination that answered (E.164, SIP URI or device id)'),
    voicemail: z.boolean().describe('the caller reached voicemail'),
    trace: z
      .array(z.object({ atSecs: z.number().min(0).describe('seconds after the call started'), step: z.enum(CALL_TRACE_STEPS), detail: z.string() }))
      .describe("every decision the engine took, as a call's trace says it"),
    branches: z.array(CallBranchSchema).describe('every branch of the route graph, in graph order, and whether this call took it'),
  })
  .meta({ id: 'CallEvaluation' });
export type CallEvaluation = z.infer<typeof CallEvaluationSchema>;

export const CallEvaluationBatchSchema = z
  .object({ data: z.array(CallEvaluationSchema).describe("each call's evaluation, in the order of `calls`") })
  .meta({ id: 'CallEvaluationBatch' });
export type CallEvaluationBatch = z.infer<typeof CallEvaluationBatchSchema>;

export const CALL_COVERAGE_SOURCES = ['saved', 'file'] as const;

export const CallCoverageBody = z
  .strictObject({
    source: z.enum(CALL_COVERAGE_SOURCES).describe("`saved`: the number's saved route was tested; `file`: a route document given with the tests"),
    tests: z.number().int().min(0).max(1_000_000),
    passed: z.number().int().min(0).max(1_000_000),
    branches: z
      .array(z.strictObject({ id: z.string().min(1).max(E.branchIdMax), taken: z.boolean() }))
      .max(E.maxBranches)
      .describe('every branch of the route graph, each id once, `taken` when a test of the run took it'),
  })
  .meta({ id: 'CallCoverageBody' });
export type CallCoverageBody = z.infer<typeof CallCoverageBody>;

export const CallCoverageSchema = z
  .object({
    numberId: z.string(),
    recordedAt: Timestamp.describe('when it was kept (service clock)'),
    source: z.enum(CALL_COVERAGE_SOURCES),
    tests: z.number().int(),
    passed: z.number().int(),
    covered: z.number().int(),
    total: z.number().int(),
    percent: z.number().describe('covered / total with one decimal, rounded down; 100 for a graph with no branch'),
    branches: z.array(CallBranchSchema),
  })
  .meta({ id: 'CallCoverage' });
export type CallCoverage = z.infer<typeof CallCoverageSchema>;
