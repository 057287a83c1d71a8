import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ListMessagesQuery, MessageIdParams, MessageSchema, SendMessageBody } from '../../api/schemas/messages.js';
import type { ServiceDeps } from '../deps.js';
import { getMessage, listMessages, sendMessage } from '../domain/messages.js';
import { messageView } from '../views/messages.js';
import { listResponse, sendList, writeViewsAsIs } from '../http/lists.js';
import { COMMITS_ONCE, commitOnce } from '../http/idempotency.js';

const SEND_DESCRIPTION = [
  'Sends an SMS (or an MMS when `mediaUrls` is given) and answers 201 with the message as accepted, status `queued`.',
  '',
  'Rules (contract §4): `to`/`from` E.164; `body` up to 1600 characters, optional only with `mediaUrls` (an empty body counts as none);',
  'up to 10 `mediaUrls`, each an http(s) URL (an empty array means no media); unknown fields are rejected. `from` must be a number the account owns, or the',
  'test sender `+15005550006` (always a test send) — else 400 `validation_error` on `["body","from"]`. A number the account',
  'has released → 409 `conflict`. A number without the `sms` capability (`mms` with media) → 422 `channel_unsupported`.',
  'A live key sending from a local number without an approved 10DLC campaign → 409 `conflict` (test keys and toll-free',
  'numbers need no campaign). A consumer who opted out of `from` (texted it a stop word, see `GET /v1/opt-outs`) → 422',
  '`channel_unsupported` with `details: {reason: "opted_out", keyword, at}`, nothing sent or billed (test keys and the test',
  'sender too). Accepts `Idempotency-Key`: the same key and body replay the original 201 with',
  '`Idempotent-Replayed: true`; the same key with another body → 409.',
  '',
  'Lifecycle: `queued → sending → sent → delivered`. A live send is handed to the simulated carrier by a durable job and',
  'reports `sending` +200 ms, `sent` +400 ms, and its final state +800 ms on the service clock (with `--clock manual`, advance',
  'the clock). A test send (test key, or from `+15005550006`) never reaches a carrier: the stub plays the whole course inside',
  'the sending transaction, so a read right after the 201 already shows its final state. Destination `+15005550001` ends',
  '`failed` (reason `invalid destination`) and `+15005550004` ends `undelivered` (reason `blocked by carrier`), for test sends',
  'too. Following the spec\'s state table, failed and undelivered messages pass through `sent` first. `message.status` is',
  'emitted for `sent`, `delivered`, `failed` and `undelivered`. Billing (live, non-test only) is recorded at `sent`: 1 cent',
  'per segment for SMS, 3 cents per MMS.',
  '',
  'Extensions on Message: `reason` (carrier reason for failed/undelivered, else null), `test` (stubbed send), `updatedAt`.',
  '`segments` counts the body (GSM-7 160 / UCS-2 70 per segment, 0 for an empty body), for MMS too.',
  '`media[].contentType` comes from the URL\'s file extension (`application/octet-stream` when unknown), `filename` from its path.',
].join('\n');

// spec: Messages and conversations; contract §4.
export function messagesRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/messages',
    { config: COMMITS_ONCE, schema: { tags: ['messages'], summary: 'Send an SMS or MMS', description: SEND_DESCRIPTION, body: SendMessageBody, response: { 201: MessageSchema } } },
    async (req, reply) => {
      const sent = await commitOnce(deps, req, 201, async (tx) => messageView(await sendMessage(tx, req.auth, req.body)));
      return reply.status(201).send(sent);
    },
  );

  r.get(
    '/v1/messages',
    {
      schema: {
        tags: ['messages'],
        summary: 'List messages, newest first',
        description:
          'Filters `direction`, `from`, `to` (E.164; percent-encode `+` as `%2B` — an unencoded `+` that arrives as a space is read as `+`) and `status`. Keyset-paged with `limit` and `cursor`; `?format=array` answers a bare array.',
        querystring: ListMessagesQuery,
        response: { 200: listResponse(MessageSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, direction, from, to, status } = req.query;
      const page = await deps.uow.read((tx) => listMessages(tx, req.auth, { direction, from, to, status }, limit, cursor));
      return sendList(req, writeViewsAsIs(reply), { ...page, data: page.data.map(messageView) });
    },
  );

  r.get(
    '/v1/messages/:id',
    {
      schema: {
        tags: ['messages'],
        summary: 'Get a message',
        description: "Another account's message is `not_found`.",
        params: MessageIdParams,
        response: { 200: MessageSchema },
      },
    },
    async (req) => messageView(await deps.uow.read((tx) => getMessage(tx, req.auth, req.params.id))),
  );
}
