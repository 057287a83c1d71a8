import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NumberIdParams } from '../../api/schemas/numbers.js';
import { GreetingUploadSchema, MediaParams, PutRouteBody, RouteResponseSchema, SavedRouteSchema } from '../../api/schemas/routes.js';
import { GREETING_AUDIO_MAX_BYTES, GREETING_AUDIO_TYPES, ROUTE_FEATURES, ROUTE_LIMITS as L } from '../../api/values/routes.js';
import type { ServiceDeps } from '../deps.js';
import { getRoute, putRoute, routeTag, uploadGreeting, type RouteState } from '../domain/voice/routes.js';
import { readMedia } from '../domain/media.js';
import { validationError } from '../errors.js';
import { IF_MATCH_HEADER, ifMatchParameter } from '../http/request-headers.js';
import { greetingUploadView, routeResponseView, savedRouteView, type MediaUrl } from '../views/routes.js';
import { ID_NOTE } from './numbers.js';

/** Public media URLs name the address the caller used to reach the service. */
const mediaUrlFor = (req: FastifyRequest): MediaUrl => {
  const origin = `${req.protocol}://${req.host || '127.0.0.1'}`;
  return (name) => `${origin}/media/${name}`;
};

const withTag = (reply: FastifyReply, s: RouteState): void => void reply.header('ETag', routeTag(s.number.id, s.record.version));

const RELEASED_NOTE = 'A released number has no call route: GET and PUT of its route, and a greeting upload, answer 409 `conflict`.';

const ROUTE_DESCRIPTION = [
  'Replaces the route wholesale (spec: Numbers): omitted fields take their defaults and omitted objects are cleared. A first PUT answers 200 like every later one.',
  'Give either `destinationType` + `destination` (legacy single form, `ringTimeoutSecs` its timeout, default 25) or `destinations` (0 to 10 entries);',
  'the array wins and the legacy fields are then ignored. Neither → 400 on `["body","destinations"]`. `destinations: []` keeps only the settings',
  '(a voicemail-only number): `destinationType` and `destination` read back null, `ringTimeoutSecs` the default 25. The position in `destinations` is',
  'the priority (0 is primary, mirrored at the top level); ids (`dst_…`) are minted on every PUT, the route id (`rte_…`) is kept.',
  `Bounds (spec: Limits): ring timeouts ${L.ringTimeoutSecs.min}-${L.ringTimeoutSecs.max} s, stage ${L.stage.min}-${L.stage.max}, destination ${L.destination.min}-${L.destination.max} characters, labels 1-${L.labelMax},`,
  `voicemail greeting 1-${L.voicemailGreetingMax}, recording notice text 1-${L.recordingNoticeTextMax}, IVR greeting text 1-${L.ivrGreetingTextMax}, URLs (http or https) up to ${L.urlMax},`,
  `IVR keys ${L.ivrKeys.min}-${L.ivrKeys.max} (digit one of 0-9 * #, each digit once per menu), digit timeout ${L.digitTimeoutSecs.min}-${L.digitTimeoutSecs.max} s (5), invalid retries ${L.invalidRetries.min}-${L.invalidRetries.max} (1),`,
  `an IVR ring action 1-10 destinations, decision webhook timeout ${L.decisionWebhookTimeoutMs.min}-${L.decisionWebhookTimeoutMs.max} ms (800).`,
  'A destination must fit its type: `pstn` an E.164 number, `sip` a `sip:` or `sips:` URI, `webrtc` the id of one of the account\'s softphone',
  'devices (`POST /v1/webrtc/devices`; any other id is a `validation_error`). The IVR `greeting` and `recordingNotice` need `text`, `audioUrl` or both.',
  'Every failure is one 400 `validation_error` listing each offending field (`["body","destinations",0,"stage"]`); nothing is saved.',
  '`voicemailGreetingAudioUrl` is not a body field: it is set by `PUT /v1/numbers/{id}/voicemail-greeting` and kept across route PUTs.',
  'Concurrency (extension): the response carries `ETag`; send it back as `If-Match` and a PUT made after another change answers 409 `conflict`,',
  'changing nothing (`If-Match: *` needs an existing route; weak tags never match). Without `If-Match` the PUT replaces as above.',
  RELEASED_NOTE,
  ID_NOTE,
].join('\n');

// spec: Numbers (GET/PUT route, PUT voicemail-greeting), Call route; contract §5.
export function numberRouteRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/numbers/:id/route',
    {
      schema: {
        tags: ['numbers'],
        summary: "Get a number's inbound call route",
        description: `\`{route, features}\`: \`route\` is null before the first PUT; \`features\` is always \`${JSON.stringify(ROUTE_FEATURES)}\` on the local service. Answers an \`ETag\` for \`If-Match\` (also before the first PUT). ${RELEASED_NOTE} ${ID_NOTE}`,
        params: NumberIdParams,
        response: { 200: RouteResponseSchema },
      },
    },
    async (req, reply) => {
      const state = await deps.uow.read((tx) => getRoute(tx, req.auth, req.params.id));
      withTag(reply, state);
      return routeResponseView(state.record, mediaUrlFor(req));
    },
  );

  r.put(
    '/v1/numbers/:id/route',
    {
      schema: {
        tags: ['numbers'],
        summary: "Replace a number's inbound call route",
        description: ROUTE_DESCRIPTION,
        params: NumberIdParams,
        body: PutRouteBody,
        headerParameters: [ifMatchParameter()],
        response: { 200: SavedRouteSchema },
      },
    },
    async (req, reply) => {
      const ifMatch = req.headers[IF_MATCH_HEADER];
      const state = (await deps.uow.write(async (tx) => await putRoute(tx, req.auth, req.params.id, req.body, { ifMatch: Array.isArray(ifMatch) ? ifMatch.join(',') : ifMatch })));
      withTag(reply, state);
      return savedRouteView({ ...state.record, route: state.record.route! }, mediaUrlFor(req));
    },
  );

  // The upload takes raw audio, not JSON: its own parsers, in a context of its own so no other route
  // accepts audio. Any other content type is a validation_error in the envelope (contract §5).
  app.register(async (audio) => {
    audio.removeAllContentTypeParsers();
    audio.addContentTypeParser([...GREETING_AUDIO_TYPES], { parseAs: 'buffer', bodyLimit: GREETING_AUDIO_MAX_BYTES }, (_req, body, done) => done(null, body));
    audio.addContentTypeParser('*', (_req, _payload, done) =>
      done(validationError(['headers', 'content-type'], `send the recording as ${GREETING_AUDIO_TYPES.join(', ')}`)),
    );
    audio.withTypeProvider<ZodTypeProvider>().put(
      '/v1/numbers/:id/voicemail-greeting',
      {
        bodyLimit: GREETING_AUDIO_MAX_BYTES,
        schema: {
          tags: ['numbers'],
          summary: 'Upload a custom voicemail greeting recording',
          description: [
            `The body is the raw recording with \`Content-Type\` ${GREETING_AUDIO_TYPES.map((t) => `\`${t}\``).join(', ')}, at most 5 MB (contract §5).`,
            'Answers `{greetingAudioUrl}`: a new public URL on every upload, served without auth under `/media/`; the route\'s',
            '`voicemailGreetingAudioUrl` takes it (an upload before the first route PUT is kept for the route to come). The previous',
            'upload\'s URL stops answering (404). Another content type, an empty body, a body over 5 MB, or bytes that do not start like',
            'the declared type (ID3 or an MPEG frame, RIFF/WAVE, OggS) → 400 `validation_error`. The route\'s ETag changes.',
            RELEASED_NOTE,
            ID_NOTE,
          ].join('\n'),
          consumes: [...GREETING_AUDIO_TYPES],
          params: NumberIdParams,
          response: { 200: GreetingUploadSchema },
        } as never,
      },
      async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const result = await deps.uow.write((tx) => uploadGreeting(tx, req.auth, req.params.id, { bytes, contentType: req.headers['content-type'] }));
        withTag(reply, result);
        return greetingUploadView(result.media, mediaUrlFor(req));
      },
    );
  });

  r.get(
    '/media/:name',
    {
      config: { public: true },
      schema: {
        tags: ['media'],
        summary: 'A public media file (voicemail greetings), without auth',
        description: 'Served with the type it was uploaded as. URLs are unguessable and minted per upload (contract §5); an unknown or replaced one is 404 `not_found`.',
        security: [],
        produces: [...GREETING_AUDIO_TYPES],
        params: MediaParams,
      } as never,
    },
    async (req: FastifyRequest<{ Params: { name: string } }>, reply) => {
      const file = await readMedia(deps, req.params.name);
      // A name is never reused: what it names never changes.
      return reply.type(file.contentType).header('Cache-Control', 'public, max-age=31536000, immutable').send(file.bytes);
    },
  );
}
