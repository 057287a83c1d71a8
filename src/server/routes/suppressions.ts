import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContent } from '../../api/schemas/common.js';
import { ListSuppressionsQuery, SuppressionAddressParams, SuppressionSchema } from '../../api/schemas/email.js';
import type { ServiceDeps } from '../deps.js';
import { listSuppressions, removeSuppression } from '../domain/email/suppressions.js';
import { suppressionView } from '../views/suppressions.js';
import { listResponse, sendList } from '../http/lists.js';

// spec: Email domains, email, suppressions; contract §8. No create operation: the spec has none;
// addresses are added by hard bounces, complaints and unsubscribes.

export function suppressionsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['email-suppressions'];

  r.get(
    '/v1/email-suppressions',
    {
      schema: {
        tags,
        summary: 'List suppressed addresses, newest first',
        description:
          "The account's suppression list: `{address, reason: hard_bounce|complaint|unsubscribe, emailId, createdAt}`, addresses lower-case. `reason` narrows the list. Keyset-paged with `limit` and `cursor`; `?format=array` answers a bare array.",
        querystring: ListSuppressionsQuery,
        response: { 200: listResponse(SuppressionSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, reason } = req.query;
      const page = await deps.uow.read((tx) => listSuppressions(tx, req.auth, limit, cursor, reason));
      return sendList(req, reply, { ...page, data: page.data.map(suppressionView) });
    },
  );

  r.delete(
    '/v1/email-suppressions/:address',
    {
      schema: {
        tags,
        summary: 'Remove a suppressed address',
        description:
          'The address URL-encoded (`jane%40example.com`), compared case-insensitively. 204 when removed; 404 when the address is not suppressed; 409 for an address that complained (complaints cannot be removed).',
        params: SuppressionAddressParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      (await deps.uow.write(async (tx) => await removeSuppression(tx, req.auth, req.params.address)));
      return reply.status(204).send(null);
    },
  );
}
