// Call-route facts as plain values (no zod): the schemas build their enums and bounds from these, the
// domain checks its cross-field rules against them, and the CLI will offer them as flag choices.
// spec: Call route, Destination entry, IVR object, Route response wrapper, Limits; contract §5.

/** spec: Call route — `destinationType`. `webrtc` names a softphone device id. */
export const DESTINATION_TYPES = ['sip', 'pstn', 'webrtc'] as const;
/** spec: Call route — `ringMode`. */
export const RING_MODES = ['simultaneous', 'sequential', 'staged'] as const;
/** spec: Call route — `callerIdMode`. */
export const CALLER_ID_MODES = ['caller', 'business'] as const;
/** spec: Call route — `noAnswerAction.type`. */
export const NO_ANSWER_ACTION_TYPES = ['voicemail', 'forward'] as const;
/** spec: IVR object — an action is `ring`, `voicemail` or `repeat`. */
export const IVR_ACTION_TYPES = ['ring', 'voicemail', 'repeat'] as const;
/** spec: Phone number — the route summary's `kind`. */
export const ROUTE_KINDS = ['forward', 'ring_group', 'ivr', 'webhook', 'voicemail', 'disabled'] as const;
/** spec: Route response wrapper; contract §5: the local service supports all three. */
export const ROUTE_FEATURES = ['ivr', 'decisionWebhook', 'recordingNotice'] as const;

/** spec: Limits — every bound that concerns routes, with its default where the spec gives one. */
export const ROUTE_LIMITS = {
  /** Ring timeout: 5 to 120 seconds (default 25); route destinations and the outbound timeout. */
  ringTimeoutSecs: { min: 5, max: 120, default: 25 },
  /** Destinations per ring set: 10, 0 allowed on PUT (the route's own set). */
  routeDestinations: { min: 0, max: 10 },
  /** Destinations of an IVR `ring` action: 1 to 10 (spec: IVR object). */
  ivrRingDestinations: { min: 1, max: 10 },
  /** Stage 0 to 4, default 0. */
  stage: { min: 0, max: 4, default: 0 },
  /** Destination 3-200 characters. */
  destination: { min: 3, max: 200 },
  /** Labels (destinations, IVR keys) 1-80 characters. */
  labelMax: 80,
  /** Voicemail greeting text 1-500 characters. */
  voicemailGreetingMax: 500,
  /** Recording notice text 1-500 characters. */
  recordingNoticeTextMax: 500,
  /** IVR greeting text 1-1000 characters. */
  ivrGreetingTextMax: 1000,
  /** Every URL of a route: at most 1000 characters. */
  urlMax: 1000,
  /** IVR keys: 1 to 12. */
  ivrKeys: { min: 1, max: 12 },
  /** IVR digit timeout 1-30 s (default 5). */
  digitTimeoutSecs: { min: 1, max: 30, default: 5 },
  /** IVR invalid retries 0-5 (default 1). */
  invalidRetries: { min: 0, max: 5, default: 1 },
  /** Decision webhook timeout 100 to 5000 ms (default 800). */
  decisionWebhookTimeoutMs: { min: 100, max: 5000, default: 800 },
} as const;

/** spec: IVR object — a key's `digit` is one character matching `^[0-9*#]$`. */
export const IVR_DIGIT_PATTERN = /^[0-9*#]$/;
/** Every key of a phone's keypad: the digits a menu can have (12). */
export const IVR_DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '*', '#'] as const;

/** contract §5: a voicemail greeting upload is raw audio of one of these types, at most 5 MB. */
export const GREETING_AUDIO_TYPES = ['audio/mpeg', 'audio/wav', 'audio/ogg'] as const;
export const GREETING_AUDIO_MAX_BYTES = 5 * 1024 * 1024;

/** Extension: GET and PUT of a route answer an ETag; PUT honours If-Match (contract §5). */
export const ETAG_HEADER = 'etag';
export const IF_MATCH_HEADER = 'if-match';
export type GreetingAudioType = (typeof GREETING_AUDIO_TYPES)[number];
