import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ConversationSummarySchema, ListConversationsQuery, ThreadParams, ThreadQuery, ThreadSchema } from '../../api/schemas/conversations.js';
import type { ServiceDeps } from '../deps.js';
import { conversationThread, listConversations } from '../domain/conversations.js';
import { conversationView } from '../views/conversations.js';
import { messageView } from '../views/messages.js';
import { listResponse, sendList, writeViewsAsIs } from '../http/lists.js';

// spec: Conversation summary and thread; contract §4.
export function conversationsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/conversations',
    {
      schema: {
        tags: ['conversations'],
        summary: 'List conversations (one per counterparty), newest lastAt first',
        description:
          'One summary per counterparty (the `to` of an outbound message, the `from` of an inbound one), whichever of the account\'s numbers was used. `lastBody`, `lastAt` and `direction` describe the latest message; extension `lastMessageId` names it. Keyset-paged on (lastAt, latest message): a conversation that gets a new message while you page moves to the front. `?format=array` answers a bare array.',
        querystring: ListConversationsQuery,
        response: { 200: listResponse(ConversationSummarySchema) },
      },
    },
    async (req, reply) => {
      const page = await deps.uow.read((tx) => listConversations(tx, req.auth, req.query.limit, req.query.cursor));
      return sendList(req, writeViewsAsIs(reply), { ...page, data: page.data.map(conversationView) });
    },
  );

  r.get(
    '/v1/conversations/:counterparty',
    {
      schema: {
        tags: ['conversations'],
        summary: 'The thread with one counterparty, oldest first',
        description:
          '`counterparty` is E.164 with the `+` percent-encoded (`%2B`). Answers `{data}` with the latest `limit` (default 50, max 200) messages, oldest first. A counterparty with no messages is an empty thread, not 404.',
        params: ThreadParams,
        querystring: ThreadQuery,
        response: { 200: ThreadSchema },
      },
    },
    async (req) => ({
      data: (await deps.uow.read((tx) => conversationThread(tx, req.auth, req.params.counterparty as string, req.query.limit))).map(messageView),
    }),
  );
}
