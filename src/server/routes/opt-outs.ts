import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ListOptOutsQuery, OptOutSchema } from '../../api/schemas/opt-outs.js';
import type { ServiceDeps } from '../deps.js';
import { listOptOuts } from '../domain/opt-outs/opt-outs.js';
import { optOutView } from '../views/opt-outs.js';
import { listResponse, sendList } from '../http/lists.js';

// contract §4, "Opt-out keywords". A list only: opt-outs are made by a consumer's stop word and
// lifted by a start word; there is no create or delete (only the consumer lifts an opt-out).

export function optOutsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/opt-outs',
    {
      schema: {
        tags: ['opt-outs'],
        summary: 'List consumers opted out of your numbers, newest first',
        description: [
          "The account's active opt-outs: `{id, numberId, from, phoneNumber, keyword, createdAt}` — `phoneNumber` texted `keyword` to `from`",
          '(one of your numbers, or the test sender `+15005550006`, whose `numberId` is null). An inbound text whose whole body, trimmed and',
          'without case, is a stop word (`STOP`, `STOPALL`, `UNSUBSCRIBE`, `CANCEL`, `END`, `QUIT`, `REVOKE`, `OPTOUT`, or one of the',
          "campaign's `optoutKeywords`) makes one and is answered once; from then on `POST /v1/messages` from that number to that consumer",
          'is 422 `channel_unsupported` with `details: {reason: "opted_out", keyword, at}`. A start word (`START`, `UNSTOP`, `YES`, or',
          "`optinKeywords`) lifts it, and it leaves this list. There is no delete: only the consumer lifts an opt-out.",
          '',
          'Filters `from` (your number) and `phoneNumber` (the consumer), E.164 with `+` percent-encoded as `%2B`. Keyset-paged with',
          '`limit` and `cursor`; `?format=array` answers a bare array.',
        ].join('\n'),
        querystring: ListOptOutsQuery,
        response: { 200: listResponse(OptOutSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, from, phoneNumber } = req.query;
      const page = await deps.uow.read((tx) => listOptOuts(tx, req.auth, { from, phoneNumber }, limit, cursor));
      return sendList(req, reply, { ...page, data: page.data.map(optOutView) });
    },
  );
}
