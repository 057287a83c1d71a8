import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CreateKeyBody, CreatedApiKeySchema, ApiKeySchema } from '../../api/schemas/keys.js';
import { IdParams, NoContent } from '../../api/schemas/common.js';
import { ListQuerySchema } from '../../api/schemas/page.js';
import type { ServiceDeps } from '../deps.js';
import { createKey, getKey, listKeys, revokeKey } from '../domain/keys.js';
import { createdKeyView, keyView } from '../views/keys.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// contract §3: API keys.
export function keysRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/keys',
    { schema: { tags: ['keys'], summary: 'Create an API key; the key is shown only in this response', description: 'The service stores only a SHA-256 hash of the key. A replay of the same `Idempotency-Key` returns the same record with `key: null`: the key itself is never stored, not even for replays.', body: CreateKeyBody, response: { 201: CreatedApiKeySchema } } },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => {
        const { key, record } = await createKey(tx, req.auth, req.body.name, req.body.mode);
        return createdKeyView(record, key);
      });
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/keys',
    { schema: { tags: ['keys'], summary: 'List API keys (never the keys themselves)', querystring: ListQuerySchema, response: { 200: listResponse(ApiKeySchema) } } },
    async (req, reply) => {
      const page = await deps.uow.read((tx) => listKeys(tx, req.auth, req.query.limit, req.query.cursor));
      return sendList(req, reply, { ...page, data: page.data.map(keyView) });
    },
  );

  r.get(
    '/v1/keys/:id',
    { schema: { tags: ['keys'], summary: 'Get one API key: its prefix, name, mode and dates (never the key, nor its hash)', params: IdParams, response: { 200: ApiKeySchema } } },
    async (req) => keyView(await deps.uow.read((tx) => getKey(tx, req.auth, req.params.id))),
  );

  r.delete(
    '/v1/keys/:id',
    { schema: { tags: ['keys'], summary: 'Revoke an API key; it fails with 401 from the next request on', params: IdParams, response: { 204: NoContent } } },
    async (req, reply) => {
      await deps.uow.write((tx) => revokeKey(tx, req.auth, req.params.id));
      return reply.status(204).send(null);
    },
  );
}
