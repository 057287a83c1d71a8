import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { NumbersRepo, NumberRecord } from '../../storage/numbers-repo.js';
import type { RouteRecord, RoutesRepo, StoredRoute } from '../../storage/routes-repo.js';
import type { MediaStore } from '../../storage/media-store.js';
import type { DevicesRepo } from '../../storage/devices-repo.js';
import type { Actor } from '../actor.js';
import { numberToChange, resolveNumber } from '../numbers.js';
import { audioMatchesType, newMediaName } from '../media.js';
import { newId } from '../../ids.js';
import { ServiceError, conflict, validationError } from '../../errors.js';
import { E164_PATTERN } from '../../../api/schemas/common.js';
import type { ErrorDetail } from '../../../api/schemas/errors.js';
import type { DestinationBody, IvrActionBody, IvrAction, PutRouteBody, RouteDestination, RouteSummary } from '../../../api/schemas/routes.js';
import { GREETING_AUDIO_MAX_BYTES, GREETING_AUDIO_TYPES, ROUTE_LIMITS } from '../../../api/values/routes.js';
import { checkWebhookUrl } from '../webhooks/url-safety.js';

// spec: Call route, Destination entry, IVR object, Numbers (GET/PUT route, voicemail greeting);
// contract §5. The per-field bounds are in the schema (api/schemas/routes.ts); the rules across
// fields are here, each failure a validation_error naming its field. The call engine joins this folder.

/** What the routes domain reads and writes (a Pick of the service deps). */
export interface RoutesDeps {
  uow: UnitOfWork;
  clock: Clock;
  numbers: NumbersRepo;
  routes: RoutesRepo;
  media: MediaStore;
  /** contract §5: a webrtc destination must be a softphone device of the account. */
  devices: Pick<DevicesRepo, 'get'>;
}

type Path = ErrorDetail['path'];

/** A number with its routing row (version 0 and no route when it never had one). */
export interface RouteState {
  number: NumberRecord;
  record: RouteRecord;
}

/** Every problem of one request, reported together (spec: Errors — details name the offending fields). */
class Issues {
  readonly details: ErrorDetail[] = [];
  add(path: Path, message: string): void {
    this.details.push({ path, message });
  }
  throwIfAny(): void {
    if (this.details.length === 0) return;
    const first = this.details[0]!;
    const more = this.details.length > 1 ? ` (and ${this.details.length - 1} more)` : '';
    throw new ServiceError('validation_error', `${first.path.join('.')}: ${first.message}${more}`, this.details);
  }
}

// --- reads -----------------------------------------------------------------------------------------

/** The ETag of a number's route (contract §5 extension): changes with every write, opaque to clients. */
export const routeTag = (numberId: string, version: number): string => `"${numberId}.${version}"`;

function emptyRecord(n: NumberRecord, now: number): RouteRecord {
  return { numberId: n.id, accountId: n.accountId, route: null, greetingMedia: null, version: 0, createdAt: now, updatedAt: now };
}

// Decision (the spec is silent): a released number has no routing. Reading or writing its route or
// greeting is a 409 conflict, as every other change to a released number is (contract §4, §5).
function assertOwned(n: NumberRecord): void {
  if (n.status === 'released') throw conflict(`${n.phoneNumber} was released; it has no call route`);
}

/** GET /v1/numbers/{id}/route: the number's route, or none. Another account's number is not_found. */
export async function getRoute(deps: Pick<RoutesDeps, 'numbers' | 'routes' | 'clock'>, actor: Actor, idOrPhone: string): Promise<RouteState> {
  const number = await resolveNumber(deps, actor, idOrPhone);
  assertOwned(number);
  return { number, record: await deps.routes.get(number.id) ?? emptyRecord(number, deps.clock.nowMs()) };
}

/**
 * If-Match against the stored version (contract §5 extension). Strong comparison (RFC 9110): a weak
 * tag never matches; `*` matches when a route exists. Without the header, anything goes.
 */
function ifMatchHolds(header: string | undefined, numberId: string, record: RouteRecord): boolean {
  if (header === undefined) return true;
  const tags = header.split(',').map((t) => t.trim()).filter(Boolean);
  if (tags.includes('*')) return record.route !== null;
  return tags.includes(routeTag(numberId, record.version));
}

// --- write: PUT route ------------------------------------------------------------------------------

/**
 * PUT /v1/numbers/{id}/route: replaces the route wholesale (spec: Numbers). Bad input, or an If-Match
 * that no longer holds, changes nothing. The uploaded voicemail greeting is not a body field and
 * stays (decision: it is replaced only by another upload).
 */
export async function putRoute(deps: RoutesDeps, actor: Actor, idOrPhone: string, body: PutRouteBody, opts: { ifMatch?: string } = {}): Promise<RouteState> {
  return await deps.uow.write(async (tx) => {
    const number = await numberToChange(tx, actor, idOrPhone);
    assertOwned(number);
    const now = tx.clock.nowMs();
    const current = await tx.routes.get(number.id) ?? emptyRecord(number, now);
    const route = await buildRoute(tx, actor, body, current.route?.id ?? newId('rte'));
    // contract §5: If-Match whose tag no longer matches → 409, nothing changed. Checked after the
    // body, so a client fixing a bad body is told about the body first.
    if (!ifMatchHolds(opts.ifMatch, number.id, current)) {
      throw conflict(`the route changed since it was read (its ETag is now ${routeTag(number.id, current.version)}); read it again and reapply the change`);
    }
    const record: RouteRecord = { ...current, route, version: current.version + 1, updatedAt: now };
    await tx.routes.save(record);
    return { number, record };
  });
}

/** Where a route body sits in its request, and how its destination ids are made. */
export interface BuildRouteOptions {
  /** The path of the body in the request (`["body"]` for a PUT; a route inside another body sits deeper). */
  at?: Path;
  /** Mints the destination ids (`dst_…`); a call evaluation numbers them so the same input reads the same. */
  mintId?: (prefix: 'dst') => string;
}

/** The stored route from a valid body: defaults applied, ids minted, the primary mirrored. */
export async function buildRoute(deps: Pick<RoutesDeps, 'devices'>, actor: Actor, body: PutRouteBody, routeId: string, opts: BuildRouteOptions = {}): Promise<StoredRoute> {
  const at = opts.at ?? ['body'];
  const issues = new Issues();
  const entries = ringSet(body, at, issues);
  const legacy = body.destinations === undefined;
  for (const [i, d] of entries.entries()) await checkDestination(deps, actor, d, legacy ? at : [...at, 'destinations', i], issues);
  if (body.ivr) await checkIvr(deps, actor, body.ivr, [...at, 'ivr'], issues);
  if (body.decisionWebhook) checkDecisionUrl(body.decisionWebhook.url, [...at, 'decisionWebhook', 'url'], issues);
  issues.throwIfAny();

  const mint = opts.mintId ?? newId;
  const destinationOf = (d: DestinationBody, priority: number) => destinationFrom(d, priority, mint('dst'));
  const actionOf = (a: IvrActionBody): IvrAction => (a.type === 'ring' ? { type: 'ring', ringMode: a.ringMode, destinations: a.destinations.map(destinationOf) } : { type: a.type });
  const destinations = entries.map(destinationOf);
  // spec: Call route — only the primary (priority 0) destination is mirrored at the top level;
  // contract §5: with `destinations: []` the mirrored type and destination are null.
  const primary = destinations[0];
  return {
    id: routeId,
    destinationType: primary?.destinationType ?? null,
    destination: primary?.destination ?? null,
    // Decision: with no destination the mirrored ring timeout is the default (spec: Limits, 25).
    ringTimeoutSecs: primary?.ringTimeoutSecs ?? ROUTE_LIMITS.ringTimeoutSecs.default,
    enabled: body.enabled,
    ringMode: body.ringMode,
    callerIdMode: body.callerIdMode,
    destinations,
    recordCalls: body.recordCalls,
    liveTranscription: body.liveTranscription,
    voicemailEnabled: body.voicemailEnabled,
    voicemailGreeting: body.voicemailGreeting,
    noAnswerAction: body.noAnswerAction,
    outboundRingTimeoutSecs: body.outboundRingTimeoutSecs,
    recordingNotice: body.recordingNotice ? { text: body.recordingNotice.text ?? null, audioUrl: body.recordingNotice.audioUrl ?? null } : null,
    ivr: body.ivr
      ? {
          enabled: body.ivr.enabled,
          greeting: { text: body.ivr.greeting.text ?? null, audioUrl: body.ivr.greeting.audioUrl ?? null },
          digitTimeoutSecs: body.ivr.digitTimeoutSecs,
          invalidRetries: body.ivr.invalidRetries,
          keys: body.ivr.keys.map((k) => ({ digit: k.digit, label: k.label, action: actionOf(k.action) })),
          fallback: actionOf(body.ivr.fallback),
        }
      : null,
    decisionWebhook: body.decisionWebhook,
  };
}

/**
 * spec: Numbers, PUT route — either `destinationType` plus `destination` (legacy single form) or a
 * `destinations` array; the array wins over the legacy fields. An explicit `[]` keeps only the route
 * settings (contract §5). Neither form is a validation_error.
 */
function ringSet(body: PutRouteBody, at: Path, issues: Issues): DestinationBody[] {
  if (body.destinations !== undefined) return body.destinations;
  const { destinationType, destination } = body;
  if (destinationType !== undefined && destination !== undefined) {
    return [{
      destinationType,
      destination,
      label: null,
      stage: ROUTE_LIMITS.stage.default,
      // spec: Numbers, PUT route — ringTimeoutSecs 5-120, default 25 (legacy form).
      ringTimeoutSecs: body.ringTimeoutSecs ?? ROUTE_LIMITS.ringTimeoutSecs.default,
      enabled: true,
    }];
  }
  if (destinationType !== undefined) issues.add([...at, 'destination'], 'required with destinationType (or give destinations)');
  else if (destination !== undefined) issues.add([...at, 'destinationType'], 'required with destination (or give destinations)');
  else issues.add([...at, 'destinations'], 'give destinations (0 to 10 entries), or destinationType and destination');
  return [];
}

/**
 * The decision webhook's URL follows the webhook endpoint rules (contract §10: https, or
 * http to loopback; no private, link-local or metadata address), checked when the route is saved,
 * enabled or not, as an endpoint's is. The decision client checks it again, and what the name
 * resolves to, at call time (`webhooks/decision-client.ts`).
 */
function checkDecisionUrl(url: string, path: Path, issues: Issues): void {
  const check = checkWebhookUrl(url);
  if (!check.ok) issues.add(path, check.reason!);
}

// spec: Numbers, PUT route — destination is "a `sip:` URI". Decision: `sips:` (SIP over TLS) too.
const SIP_URI = /^sips?:[^\s]+$/i;

/** spec: Numbers, PUT route — `destination` is a PSTN E.164 number, a `sip:` URI, or a softphone device id. */
async function checkDestination(deps: Pick<RoutesDeps, 'devices'>, actor: Actor, d: DestinationBody, at: Path, issues: Issues): Promise<void> {
  const path = [...at, 'destination'];
  switch (d.destinationType) {
    case 'pstn':
      if (!E164_PATTERN.test(d.destination)) issues.add(path, 'a pstn destination must be an E.164 phone number like +14155550123');
      break;
    case 'sip':
      if (!SIP_URI.test(d.destination)) issues.add(path, 'a sip destination must be a sip: URI like sip:frontdesk@pbx.example.com');
      break;
    case 'webrtc':
      // contract §5: a webrtc destination that is not a device of the account (missing, deleted, or
      // another account's) is a validation_error.
      if (!await deps.devices.get(actor.account.id, d.destination)) {
        issues.add(path, `no softphone device ${d.destination} on this account (register one with POST /v1/webrtc/devices)`);
      }
      break;
  }
}

/** spec: IVR object — each key's ring destinations as route destinations; digits unique per menu. */
async function checkIvr(deps: Pick<RoutesDeps, 'devices'>, actor: Actor, ivr: NonNullable<PutRouteBody['ivr']>, at: Path, issues: Issues): Promise<void> {
  const seen = new Map<string, number>();
  for (const [i, k] of ivr.keys.entries()) {
    // Decision: a digit chooses one action, so it appears once per menu.
    const first = seen.get(k.digit);
    if (first !== undefined) issues.add([...at, 'keys', i, 'digit'], `digit ${k.digit} is already used by keys[${first}]`);
    else seen.set(k.digit, i);
    await checkAction(deps, actor, k.action, [...at, 'keys', i, 'action'], issues);
  }
  await checkAction(deps, actor, ivr.fallback, [...at, 'fallback'], issues);
}

async function checkAction(deps: Pick<RoutesDeps, 'devices'>, actor: Actor, a: IvrActionBody, at: Path, issues: Issues): Promise<void> {
  if (a.type === 'ring') for (const [j, d] of a.destinations.entries()) await checkDestination(deps, actor, d, [...at, 'destinations', j], issues);
}

/** spec: Call route — priority 0 is primary; the position in the array is the priority. */
function destinationFrom(d: DestinationBody, priority: number, id: string): RouteDestination {
  return {
    id,
    destinationType: d.destinationType,
    destination: d.destination,
    label: d.label,
    priority,
    stage: d.stage,
    ringTimeoutSecs: d.ringTimeoutSecs,
    enabled: d.enabled,
  };
}

// --- write: voicemail greeting ---------------------------------------------------------------------

export interface GreetingUploadInput {
  bytes: Buffer;
  /** The request's Content-Type, as sent. */
  contentType: string | undefined;
}

/**
 * PUT /v1/numbers/{id}/voicemail-greeting (contract §5): raw audio (audio/mpeg, audio/wav or
 * audio/ogg, at most 5 MB) → a new public URL on every upload; the route's voicemailGreetingAudioUrl
 * takes it (also before the first route PUT: the route, once saved, carries it). The previous upload's
 * file is deleted. Returns the state and the new media name.
 */
export async function uploadGreeting(deps: RoutesDeps, actor: Actor, idOrPhone: string, upload: GreetingUploadInput): Promise<RouteState & { media: string }> {
  const number = await numberToChange(deps, actor, idOrPhone);
  assertOwned(number);
  const contentType = (upload.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(GREETING_AUDIO_TYPES as readonly string[]).includes(contentType)) {
    throw validationError(['headers', 'content-type'], `send the recording as ${GREETING_AUDIO_TYPES.join(', ')}`);
  }
  if (upload.bytes.length === 0) throw validationError(['body'], 'the recording is empty');
  if (upload.bytes.length > GREETING_AUDIO_MAX_BYTES) throw validationError(['body'], 'larger than 5 MB');
  if (!audioMatchesType(upload.bytes, contentType)) throw validationError(['body'], `not ${contentType} audio (the bytes do not start like one)`);

  const media = newMediaName('greeting', contentType);
  await deps.media.put(media, upload.bytes, { accountId: number.accountId, contentType, at: deps.clock.nowMs() });
  let previous: string | null = null;
  let state: RouteState;
  try {
    state = await deps.uow.write(async (tx) => {
      const n = await numberToChange(tx, actor, idOrPhone);
      assertOwned(n);
      const now = tx.clock.nowMs();
      const current = await tx.routes.get(n.id) ?? emptyRecord(n, now);
      previous = current.greetingMedia;
      const record: RouteRecord = { ...current, greetingMedia: media, version: current.version + 1, updatedAt: now };
      await tx.routes.save(record);
      return { number: n, record };
    });
  } catch (err) {
    await deps.media.delete(media);
    throw err;
  }
  if (previous) await deps.media.delete(previous);
  return { ...state, media };
}

// --- the number's route summary --------------------------------------------------------------------

/**
 * spec: Phone number — `route` is a summary `{kind, label}`, null when there is no route. Decision
 * (the spec names the kinds, not how they are chosen), first match wins: a disabled route is
 * `disabled`; an enabled decision webhook decides first (`webhook`); an enabled IVR answers next
 * (`ivr`); then by enabled destinations: several `ring_group`, one `forward`; with none, a forward
 * no-answer action is `forward`, voicemail (the action, or voicemail enabled) is `voicemail`, and
 * anything else rings out (`disabled`).
 */
export function routeSummary(route: StoredRoute): RouteSummary {
  if (!route.enabled) return { kind: 'disabled', label: 'Disabled' };
  if (route.decisionWebhook?.enabled) return { kind: 'webhook', label: `Decision webhook ${hostOf(route.decisionWebhook.url)}` };
  if (route.ivr?.enabled) return { kind: 'ivr', label: `IVR menu, ${plural(route.ivr.keys.length, 'key')}` };
  const live = route.destinations.filter((d) => d.enabled);
  if (live.length > 1) return { kind: 'ring_group', label: `Ring ${plural(live.length, 'destination')}, ${route.ringMode}` };
  if (live.length === 1) return { kind: 'forward', label: `Forward to ${live[0]!.label ?? live[0]!.destination}` };
  if (route.noAnswerAction?.type === 'forward') return { kind: 'forward', label: `Forward to ${route.noAnswerAction.to}` };
  if (route.noAnswerAction?.type === 'voicemail' || route.voicemailEnabled) return { kind: 'voicemail', label: 'Voicemail' };
  return { kind: 'disabled', label: 'No destinations' };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The summaries of a page of numbers, by number id (one read); a released number has none. */
export async function routeSummaries(deps: Pick<RoutesDeps, 'routes'>, numbers: readonly NumberRecord[]): Promise<ReadonlyMap<string, RouteSummary>> {
  const rows = await deps.routes.getMany(numbers.filter((n) => n.status !== 'released').map((n) => n.id));
  const out = new Map<string, RouteSummary>();
  for (const [id, r] of rows) if (r.route) out.set(id, routeSummary(r.route));
  return out;
}
