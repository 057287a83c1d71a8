import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../api/schemas/common.js';
import { CallSchema, CallTraceSchema, ListCallsQuery, ListVoicemailsQuery, TransferCallBody, VoicemailSchema } from '../../api/schemas/calls.js';
import { SoftphoneCallBody } from '../../api/schemas/softphone.js';
import { OUTBOUND_CALL_SIMULATION } from '../../api/values/calls.js';
import type { ServiceDeps } from '../deps.js';
import { callRecording, getCall, getVoicemail, listCalls, listVoicemails, placeSoftphoneCall, transferCall, voicemailAudio } from '../domain/voice/calls.js';
import { callTraceView, callView } from '../views/calls.js';
import { voicemailAudioPath, voicemailView, type VoicemailAudioUrl } from '../views/voicemails.js';
import { listResponse, sendList } from '../http/lists.js';
import { COMMITS_ONCE, commitOnce } from '../http/idempotency.js';
import { requestOrigin } from '../http/origin.js';

/** Audio URLs name the address the caller used to reach the service (as public media URLs do). */
const audioUrlFor = (req: FastifyRequest): VoicemailAudioUrl => {
  const origin = requestOrigin(req);
  return (id) => `${origin}${voicemailAudioPath(id)}`;
};

const WAV = 'audio/wav';
const RECORDER_NOTE =
  'The local service carries no media: the audio is the simulated recorder\'s, a valid WAV (8 kHz, 16-bit mono PCM, a quiet tone) as long as the recording (at most 10 minutes), the same bytes on every read.';

const TRANSFER_DESCRIPTION = [
  '`{to}`: an E.164 number, or the id of one of the account\'s softphone devices (`dev_…`); anything else is 400 `validation_error` on `["body","to"]`.',
  'Only a call `in_progress` can be transferred: any other status answers 409 `conflict`. Answers 200 with the Call: `answeredBy` is the new party',
  '(the number, or the device id), `answeredDevice` the device or null, and the trace gains a `transfer` step.',
  'Decision (the contract is silent on the end): the new party talks as long again as the first one was to — the sandbox scenario\'s `durationSecs` for an',
  `inbound call, ${OUTBOUND_CALL_SIMULATION.durationSecs} s for an outbound one — counted from the transfer; a caller's scheduled hang-up still ends the call if it comes first.`,
  '`answeredAt` stays the first answer, so `durationSeconds` and the voice minutes cover the whole connected time.',
].join('\n');

const SOFTPHONE_CALL_DESCRIPTION = [
  'Places an outbound call through a softphone device (spec: Softphone): the service rings the device, which auto-answers, dials `to` and bridges them.',
  'Answers 201 with the Call, `direction: outbound`, status `ringing`. `from` must be a voice number of the account (else 400 on `["body","from"]`),',
  '`deviceId` one of its devices (else 400 on `["body","deviceId"]`); both failures are reported at once.',
  `Decision (the contract is silent on the callee): the simulated callee answers ${OUTBOUND_CALL_SIMULATION.answerAfterSecs} s later (\`in_progress\`, \`answeredBy\` the callee,`,
  `\`answeredDevice\` the device) and hangs up ${OUTBOUND_CALL_SIMULATION.durationSecs} s after that (\`completed\`, then \`call.completed\` with \`direction: outbound\`), on the`,
  'service clock (with a manual clock, advance it). A live key records voice minutes when the call ends (contract §11).',
].join('\n');

// spec: Calls and voicemail, Softphone (outbound calls); contract §6.
export function callsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/calls',
    {
      schema: {
        tags: ['calls'],
        summary: 'List calls, newest first',
        description: 'Filters `status` and `direction`. Keyset-paged with `limit` and `cursor`; `?format=array` answers a bare array.',
        querystring: ListCallsQuery,
        response: { 200: listResponse(CallSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status, direction } = req.query;
      const page = await deps.uow.read((tx) => listCalls(tx, req.auth, { status, direction }, limit, cursor));
      return sendList(req, reply, { ...page, data: page.data.map(callView) });
    },
  );

  r.get(
    '/v1/calls/:id',
    {
      schema: {
        tags: ['calls'],
        summary: 'Get a call',
        description: "Another account's call is `not_found`. `durationSeconds` counts from the answer to the end (null until an answered call ends).",
        params: IdParams,
        response: { 200: CallSchema },
      },
    },
    async (req) => callView(await deps.uow.read((tx) => getCall(tx, req.auth, req.params.id))),
  );

  r.get(
    '/v1/calls/:id/trace',
    {
      schema: {
        tags: ['calls'],
        summary: "The call engine's decisions for a call (extension)",
        description:
          '`{data: [{at, step, detail}], complete}` in the order the engine took them (contract §6): blocklist, decision webhook (the answer or why it failed open, with its latency), recording notice, IVR prompts, keys, timeouts and invalid digits, each leg dialed or skipped and why, answered or not, forwarding, voicemail, recording, transfers, each event emitted, the end. Kept as long as the call.',
        params: IdParams,
        response: { 200: CallTraceSchema },
      },
    },
    async (req) => callTraceView(await deps.uow.read((tx) => getCall(tx, req.auth, req.params.id))),
  );

  r.get(
    '/v1/calls/:id/recording',
    {
      schema: {
        tags: ['calls'],
        summary: "A call's recording (audio/wav)",
        description: `The recording of an answered call on a route with \`recordCalls\` on; a call that was not recorded is 404 \`not_found\`. While the call is in progress, the talk so far. ${RECORDER_NOTE}`,
        produces: [WAV],
        params: IdParams,
      } as never,
    },
    async (req: FastifyRequest<{ Params: { id: string } }>, reply) => reply.type(WAV).send(await deps.uow.read((tx) => callRecording(tx, req.auth, req.params.id))),
  );

  r.post(
    '/v1/calls/:id/transfer',
    { schema: { tags: ['calls'], summary: 'Transfer a connected call', description: TRANSFER_DESCRIPTION, params: IdParams, body: TransferCallBody, response: { 200: CallSchema } } },
    async (req) => commitOnce(deps, req, 200, async (tx) => callView(await transferCall(tx, req.auth, req.params.id, req.body))),
  );

  r.post(
    '/v1/webrtc/calls',
    { config: COMMITS_ONCE, schema: { tags: ['softphone'], summary: 'Place an outbound call through a softphone device', description: SOFTPHONE_CALL_DESCRIPTION, body: SoftphoneCallBody, response: { 201: CallSchema } } },
    async (req, reply) => {
      const placed = await commitOnce(deps, req, 201, async (tx) => callView(await placeSoftphoneCall(tx, req.auth, req.body, { origin: requestOrigin(req) })));
      return reply.status(201).send(placed);
    },
  );

  r.get(
    '/v1/voicemails',
    {
      schema: {
        tags: ['voicemails'],
        summary: 'List voicemails, newest first',
        description: 'Captured voicemails with their transcripts. `recordingUrl` is the audio\'s absolute URL on the address this request used. Keyset-paged; `?format=array` answers a bare array.',
        querystring: ListVoicemailsQuery,
        response: { 200: listResponse(VoicemailSchema) },
      },
    },
    async (req, reply) => {
      const page = await deps.uow.read((tx) => listVoicemails(tx, req.auth, req.query.limit, req.query.cursor));
      const url = audioUrlFor(req);
      return sendList(req, reply, { ...page, data: page.data.map((v) => voicemailView(v, url)) });
    },
  );

  r.get(
    '/v1/voicemails/:id',
    {
      schema: {
        tags: ['voicemails'],
        summary: 'Get a voicemail',
        description: "Another account's voicemail is `not_found`. `recordingUrl` is `GET /v1/voicemails/{id}/audio` as an absolute URL on the address this request used.",
        params: IdParams,
        response: { 200: VoicemailSchema },
      },
    },
    async (req) => voicemailView(await deps.uow.read((tx) => getVoicemail(tx, req.auth, req.params.id)), audioUrlFor(req)),
  );

  r.get(
    '/v1/voicemails/:id/audio',
    {
      schema: {
        tags: ['voicemails'],
        summary: "A voicemail's audio (audio/wav)",
        description: `Available even when transcription failed (spec: voicemail.received). ${RECORDER_NOTE}`,
        produces: [WAV],
        params: IdParams,
      } as never,
    },
    async (req: FastifyRequest<{ Params: { id: string } }>, reply) => reply.type(WAV).send(await deps.uow.read((tx) => voicemailAudio(tx, req.auth, req.params.id))),
  );
}
