import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BlockedNumberSchema,
  CreateBlockedNumberBody,
  ListBlockedNumbersQuery,
  UpdateBlockedNumberBody,
} from '../../api/schemas/blocked-numbers.js';
import { IdParams, NoContent } from '../../api/schemas/common.js';
import { BLOCK_SUGGESTION } from '../../api/values/calls.js';
import type { ServiceDeps } from '../deps.js';
import {
  blockNumber,
  getBlockedNumber,
  listBlockedNumbers,
  unblockNumber,
  updateBlockedNumber,
} from '../domain/voice/blocked-numbers.js';
import { blockedNumberView } from '../views/blocked-numbers.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// spec: Blocked number; contract §6 (Blocked numbers). Decisions are in the descriptions, so they
// land in /openapi.json.

const ENFORCEMENT = [
  'A confirmed entry (`autoSuggested: false`) rejects inbound calls from the number before anything rings',
  '(the call ends `blocked`; `blockedCallCount` and `lastBlockedAt` count them). A suggestion',
  `(\`autoSuggested: true\`) is added by the service after ${BLOCK_SUGGESTION.calls} inbound calls from one number within`,
  `${BLOCK_SUGGESTION.windowSecs / 60} minutes (service clock) that each ended unanswered or answered for under ${BLOCK_SUGGESTION.shortCallSecs} s;`,
  'it is not enforced until a person confirms it.',
].join('\n');

/** contract §2: the test-key rule for entries (domain/voice/blocked-numbers.ts). */
const LIVE_ENTRIES =
  'An entry added with a live key, or suggested after calls of which one was placed with a live key, is a live key\'s to change or delete: a test key is `403 forbidden` (contract §2).';

export function blockedNumbersRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['blocked-numbers'];

  r.get(
    '/v1/blocked-numbers',
    {
      schema: {
        tags,
        summary: 'List the blocklist, newest first (confirmed entries and suggestions)',
        description: ['`autoSuggested=true` lists only suggestions, `false` only confirmed entries.', '', ENFORCEMENT].join('\n'),
        querystring: ListBlockedNumbersQuery,
        response: { 200: listResponse(BlockedNumberSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, autoSuggested } = req.query;
      const page = await deps.uow.read((tx) => listBlockedNumbers(tx, req.auth, { limit, cursor, autoSuggested }));
      return sendList(req, reply, { ...page, data: page.data.map(blockedNumberView) });
    },
  );

  r.post(
    '/v1/blocked-numbers',
    {
      schema: {
        tags,
        summary: 'Block a number',
        description: [
          '`409 conflict` when the number is already on the list, confirmed or suggested by the service (contract §6);',
          'a suggestion is confirmed with `PATCH /v1/blocked-numbers/{id}` `{"autoSuggested": false}`.',
          '',
        ENFORCEMENT,
        ].join('\n'),
        body: CreateBlockedNumberBody,
        response: { 201: BlockedNumberSchema },
      },
    },
    async (req, reply) => {
      const view = await commitOnce(deps, req, 201, async (tx) => blockedNumberView(await blockNumber(tx, req.auth, req.body)));
      return reply.status(201).send(view);
    },
  );

  r.get(
    '/v1/blocked-numbers/:id',
    { schema: { tags, summary: 'Get a blocklist entry', params: IdParams, response: { 200: BlockedNumberSchema } } },
    async (req) => blockedNumberView(await deps.uow.read((tx) => getBlockedNumber(tx, req.auth, req.params.id))),
  );

  r.patch(
    '/v1/blocked-numbers/:id',
    {
      schema: {
        tags,
        summary: 'Change the reason, or confirm a suggestion with `autoSuggested: false`',
        description: ['`reason: null` clears it. `autoSuggested` can only be set to `false` (a confirmed entry stays confirmed; delete it to unblock).', LIVE_ENTRIES].join('\n'),
        params: IdParams,
        body: UpdateBlockedNumberBody,
        response: { 200: BlockedNumberSchema },
      },
    },
    async (req) => blockedNumberView((await deps.uow.write(async (tx) => await updateBlockedNumber(tx, req.auth, req.params.id, req.body)))),
  );

  r.delete(
    '/v1/blocked-numbers/:id',
    { schema: { tags, summary: 'Remove a blocklist entry (confirmed or suggested); the number may call again', description: LIVE_ENTRIES, params: IdParams, response: { 204: NoContent } } },
    async (req, reply) => {
      (await deps.uow.write(async (tx) => await unblockNumber(tx, req.auth, req.params.id)));
      return reply.status(204).send(null);
    },
  );
}
