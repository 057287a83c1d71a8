import type { RouteRecord, StoredRoute } from '../storage/routes-repo.js';
import type { CallRoute, GreetingUpload, RouteResponse, SavedRoute } from '../../api/schemas/routes.js';
import { ROUTE_FEATURES } from '../../api/values/routes.js';

// Records → API shapes for call routes (spec: Call route, Route response wrapper, Voicemail greeting
// upload result). Every spec field is always present. Rules for reads: views/README.md.

/** The public URL of a media file, as the caller reached the service (`http://127.0.0.1:4010/media/<name>`). */
export type MediaUrl = (name: string) => string;

export const callRouteView = (r: StoredRoute, greetingMedia: string | null, mediaUrl: MediaUrl): CallRoute => ({
  id: r.id,
  destinationType: r.destinationType,
  destination: r.destination,
  ringTimeoutSecs: r.ringTimeoutSecs,
  enabled: r.enabled,
  ringMode: r.ringMode,
  callerIdMode: r.callerIdMode,
  destinations: r.destinations.map((d) => ({ ...d })),
  recordCalls: r.recordCalls,
  liveTranscription: r.liveTranscription,
  voicemailEnabled: r.voicemailEnabled,
  voicemailGreeting: r.voicemailGreeting,
  voicemailGreetingAudioUrl: greetingMedia === null ? null : mediaUrl(greetingMedia),
  noAnswerAction: r.noAnswerAction,
  outboundRingTimeoutSecs: r.outboundRingTimeoutSecs,
  recordingNotice: r.recordingNotice,
  ivr: r.ivr,
  decisionWebhook: r.decisionWebhook,
});

const routeOf = (rec: RouteRecord, mediaUrl: MediaUrl): CallRoute | null =>
  rec.route === null ? null : callRouteView(rec.route, rec.greetingMedia, mediaUrl);

/** GET: `{ route, features }` (contract §5: the local service supports every feature). */
export const routeResponseView = (rec: RouteRecord, mediaUrl: MediaUrl): RouteResponse => ({
  route: routeOf(rec, mediaUrl),
  features: [...ROUTE_FEATURES],
});

/** PUT: a saved route is returned as `{ route }`. */
export const savedRouteView = (rec: RouteRecord & { route: StoredRoute }, mediaUrl: MediaUrl): SavedRoute => ({
  route: callRouteView(rec.route, rec.greetingMedia, mediaUrl),
});

export const greetingUploadView = (media: string, mediaUrl: MediaUrl): GreetingUpload => ({ greetingAudioUrl: mediaUrl(media) });
