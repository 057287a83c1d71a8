import { z } from 'zod';
import { DisplayName, E164 } from './common.js';
import {
  CALLER_ID_MODES,
  DESTINATION_TYPES,
  IVR_DIGIT_PATTERN,
  RING_MODES,
  ROUTE_FEATURES,
  ROUTE_KINDS,
  ROUTE_LIMITS as L,
} from '../values/routes.js';

// spec: Call route (and its Destination entry, IVR object, Route response wrapper, Voicemail greeting
// upload result), Numbers (PUT route body), Limits; contract §5. Per-field bounds live here; rules
// across fields (legacy form vs `destinations`, a destination's form by its type, webrtc devices,
// unique IVR digits) live in the domain (server/domain/voice/routes.ts), which names each field.

export const DestinationType = z.enum(DESTINATION_TYPES);
export type DestinationType = z.infer<typeof DestinationType>;
export const RingMode = z.enum(RING_MODES);
export type RingMode = z.infer<typeof RingMode>;
export const CallerIdMode = z.enum(CALLER_ID_MODES);
export const RouteKind = z.enum(ROUTE_KINDS);
export type RouteKind = z.infer<typeof RouteKind>;
export const RouteFeature = z.enum(ROUTE_FEATURES);

const range = (b: { min: number; max: number }) => z.number().int().min(b.min).max(b.max);
const RingTimeoutSecs = range(L.ringTimeoutSecs); // spec: Limits, ring timeout 5-120
const Stage = range(L.stage); // spec: Limits, stage 0-4
const Label = DisplayName(z.string().min(1).max(L.labelMax)); // spec: Limits, labels 80
const DestinationValue = z
  .string()
  .min(L.destination.min)
  .max(L.destination.max)
  .describe('A PSTN E.164 number (`pstn`), a `sip:` or `sips:` URI (`sip`), or a softphone device id of the account (`webrtc`)');
// spec: Limits, URLs 1000 characters. Decision: http(s) only (the service fetches or POSTs to them).
const RouteUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(L.urlMax);

// --- request side ---------------------------------------------------------------------------------

/** spec: Destination entry as written (request side). The position in its array is its priority. */
export const DestinationBody = z
  .strictObject({
    destinationType: DestinationType,
    destination: DestinationValue,
    label: Label.nullable().default(null),
    stage: Stage.default(L.stage.default),
    ringTimeoutSecs: RingTimeoutSecs.default(L.ringTimeoutSecs.default),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'RouteDestinationBody' });
export type DestinationBody = z.infer<typeof DestinationBody>;

/** contract §5: a greeting or notice needs `text`, `audioUrl`, or both (an empty object is invalid). */
const textOrAudio = <T extends { text?: string; audioUrl?: string }>(o: T) => o.text !== undefined || o.audioUrl !== undefined;
const TEXT_OR_AUDIO = { message: 'give text, audioUrl, or both' };

export const RecordingNoticeBody = z
  .strictObject({ text: z.string().min(1).max(L.recordingNoticeTextMax).optional(), audioUrl: RouteUrl.optional() })
  .refine(textOrAudio, TEXT_OR_AUDIO);

const IvrGreetingBody = z
  .strictObject({ text: z.string().min(1).max(L.ivrGreetingTextMax).optional(), audioUrl: RouteUrl.optional() })
  .refine(textOrAudio, TEXT_OR_AUDIO);

/** spec: IVR object — an action is ring (its own ring set), voicemail or repeat. */
export const IvrActionBody = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('ring'),
      ringMode: RingMode.default('simultaneous'),
      destinations: z.array(DestinationBody).min(L.ivrRingDestinations.min).max(L.ivrRingDestinations.max),
    }),
    z.strictObject({ type: z.literal('voicemail') }),
    z.strictObject({ type: z.literal('repeat') }),
  ])
  .meta({ id: 'IvrActionBody' });
export type IvrActionBody = z.infer<typeof IvrActionBody>;

export const IvrBody = z
  .strictObject({
    enabled: z.boolean(),
    greeting: IvrGreetingBody,
    digitTimeoutSecs: range(L.digitTimeoutSecs).default(L.digitTimeoutSecs.default),
    invalidRetries: range(L.invalidRetries).default(L.invalidRetries.default),
    keys: z
      .array(
        z.strictObject({
          digit: z.string().regex(IVR_DIGIT_PATTERN, 'must be one of 0-9, * or #'),
          label: Label.nullable().default(null),
          action: IvrActionBody,
        }),
      )
      .min(L.ivrKeys.min)
      .max(L.ivrKeys.max),
    fallback: IvrActionBody.default({ type: 'voicemail' }),
  })
  .meta({ id: 'IvrBody' });
export type IvrBody = z.infer<typeof IvrBody>;

export const NoAnswerActionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('voicemail') }),
  z.strictObject({ type: z.literal('forward'), to: E164 }),
]);
export type NoAnswerAction = z.infer<typeof NoAnswerActionSchema>;

export const DecisionWebhookBody = z.strictObject({
  enabled: z.boolean(),
  url: RouteUrl,
  timeoutMs: range(L.decisionWebhookTimeoutMs).default(L.decisionWebhookTimeoutMs.default),
});

/**
 * spec: Numbers, PUT route body. Wholesale: omitted fields take their defaults and omitted objects
 * are cleared. `destinations` wins over the legacy `destinationType` + `destination`.
 */
export const PutRouteBody = z
  .strictObject({
    destinationType: DestinationType.optional().describe('Legacy single form, with `destination`; ignored when `destinations` is given'),
    destination: DestinationValue.optional(),
    ringTimeoutSecs: RingTimeoutSecs.optional().describe(`Legacy single form: the destination's ring timeout (default ${L.ringTimeoutSecs.default})`),
    enabled: z.boolean().default(true),
    ringMode: RingMode.default('simultaneous'),
    callerIdMode: CallerIdMode.default('caller'),
    recordCalls: z.boolean().default(false),
    liveTranscription: z.boolean().default(false),
    voicemailEnabled: z.boolean().default(false),
    voicemailGreeting: z.string().min(1).max(L.voicemailGreetingMax).nullable().default(null),
    destinations: z
      .array(DestinationBody)
      .min(L.routeDestinations.min)
      .max(L.routeDestinations.max)
      .optional()
      .describe('0 to 10 entries, priority by position (the first is primary); `[]` keeps only the route settings'),
    noAnswerAction: NoAnswerActionSchema.nullable().default(null),
    outboundRingTimeoutSecs: RingTimeoutSecs.nullable().default(null),
    recordingNotice: RecordingNoticeBody.nullable().default(null),
    ivr: IvrBody.nullable().default(null),
    decisionWebhook: DecisionWebhookBody.nullable().default(null),
  })
  .meta({ id: 'PutRouteBody' });
export type PutRouteBody = z.infer<typeof PutRouteBody>;
export type PutRouteInput = z.input<typeof PutRouteBody>;

// --- response side --------------------------------------------------------------------------------

/** spec: Call route — `destinations[]` entry. */
export const RouteDestinationSchema = z
  .object({
    id: z.string(),
    destinationType: DestinationType,
    destination: z.string(),
    label: z.string().nullable(),
    priority: z.number().int(),
    stage: z.number().int(),
    ringTimeoutSecs: z.number().int(),
    enabled: z.boolean(),
  })
  .meta({ id: 'RouteDestination' });
export type RouteDestination = z.infer<typeof RouteDestinationSchema>;

const TextOrAudio = z.object({ text: z.string().nullable(), audioUrl: z.string().nullable() });

// Response unions are plain unions (anyOf): the CLI's compiled parsers (api/json-schema-check.ts)
// know anyOf, not the oneOf a discriminated union renders to.
export const IvrActionSchema = z
  .union([
    z.object({ type: z.literal('ring'), ringMode: RingMode, destinations: z.array(RouteDestinationSchema) }),
    z.object({ type: z.literal('voicemail') }),
    z.object({ type: z.literal('repeat') }),
  ])
  .meta({ id: 'IvrAction' });
export type IvrAction = z.infer<typeof IvrActionSchema>;

export const IvrSchema = z
  .object({
    enabled: z.boolean(),
    greeting: TextOrAudio,
    digitTimeoutSecs: z.number().int(),
    invalidRetries: z.number().int(),
    keys: z.array(z.object({ digit: z.string(), label: z.string().nullable(), action: IvrActionSchema })),
    fallback: IvrActionSchema,
  })
  .meta({ id: 'Ivr' });
export type Ivr = z.infer<typeof IvrSchema>;

/** spec: Call route. Every field is always present. */
export const CallRouteSchema = z
  .object({
    id: z.string(),
    destinationType: DestinationType.nullable().describe('Null only when `destinations` is empty (contract §5)'),
    destination: z.string().nullable(),
    ringTimeoutSecs: z.number().int(),
    enabled: z.boolean(),
    ringMode: RingMode,
    callerIdMode: CallerIdMode,
    destinations: z.array(RouteDestinationSchema),
    recordCalls: z.boolean(),
    liveTranscription: z.boolean(),
    voicemailEnabled: z.boolean(),
    voicemailGreeting: z.string().nullable(),
    voicemailGreetingAudioUrl: z.string().nullable(),
    noAnswerAction: z
      .union([z.object({ type: z.literal('voicemail') }), z.object({ type: z.literal('forward'), to: z.string() })])
      .nullable(),
    outboundRingTimeoutSecs: z.number().int().nullable(),
    recordingNotice: TextOrAudio.nullable(),
    ivr: IvrSchema.nullable(),
    decisionWebhook: z.object({ enabled: z.boolean(), url: z.string(), timeoutMs: z.number().int() }).nullable(),
  })
  .meta({ id: 'CallRoute' });
export type CallRoute = z.infer<typeof CallRouteSchema>;

/** spec: Route response wrapper (GET). */
export const RouteResponseSchema = z
  .object({ route: CallRouteSchema.nullable(), features: z.array(RouteFeature) })
  .meta({ id: 'RouteResponse' });
export type RouteResponse = z.infer<typeof RouteResponseSchema>;

/** spec: Route response wrapper — a saved route is returned as `{ route }` (PUT). */
export const SavedRouteSchema = z.object({ route: CallRouteSchema }).meta({ id: 'SavedRoute' });
export type SavedRoute = z.infer<typeof SavedRouteSchema>;

/** spec: Voicemail greeting upload result. */
export const GreetingUploadSchema = z.object({ greetingAudioUrl: z.string() }).meta({ id: 'VoicemailGreetingUpload' });
export type GreetingUpload = z.infer<typeof GreetingUploadSchema>;

/** spec: Phone number — `route` summary. */
export const RouteSummarySchema = z.object({ kind: RouteKind, label: z.string() }).meta({ id: 'RouteSummary' });
export type RouteSummary = z.infer<typeof RouteSummarySchema>;

/** A media file name under `/media/` (what the service minted: no paths). */
export const MediaParams = z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_-]{1,100}\.[a-z0-9]{1,5}$/, 'not a media name') });
