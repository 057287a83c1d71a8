import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AgencySummarySchema, CreateSubaccountBody, SubaccountSchema, UpdateSubaccountBody } from '../../api/schemas/subaccounts.js';
import { ListQuerySchema } from '../../api/schemas/page.js';
import { IdParams } from '../../api/schemas/common.js';
import type { ServiceDeps } from '../deps.js';
import { createSubaccount, getSubaccount, listSubaccounts, updateSubaccount } from '../domain/accounts.js';
import { agencySummary } from '../domain/agency.js';
import { subaccountView } from '../views/subaccounts.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// contract §3: sub-accounts and the agency summary. Agency-level: they reject Service-Subaccount, so
// the actor (req.auth) acts as the caller's own account.
const agencyLevel = { agencyLevel: true };

export function subaccountRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/subaccounts',
    { config: agencyLevel, schema: { tags: ['subaccounts'], summary: 'Create a sub-account (agency only)', body: CreateSubaccountBody, response: { 201: SubaccountSchema } } },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => subaccountView(await createSubaccount(tx, req.auth, req.body.name)));
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/subaccounts',
    { config: agencyLevel, schema: { tags: ['subaccounts'], summary: 'List sub-accounts (agency only)', querystring: ListQuerySchema, response: { 200: listResponse(SubaccountSchema) } } },
    async (req, reply) => {
      const page = await deps.uow.read((tx) => listSubaccounts(tx, req.auth, req.query.limit, req.query.cursor));
      return sendList(req, reply, { ...page, data: page.data.map(subaccountView) });
    },
  );

  r.get(
    '/v1/subaccounts/:id',
    { config: agencyLevel, schema: { tags: ['subaccounts'], summary: 'Get a sub-account', params: IdParams, response: { 200: SubaccountSchema } } },
    async (req) => subaccountView(await deps.uow.read((tx) => getSubaccount(tx, req.auth, req.params.id))),
  );

  r.patch(
    '/v1/subaccounts/:id',
    {
      config: agencyLevel,
      schema: { tags: ['subaccounts'], summary: 'Rename, suspend or resume a sub-account', params: IdParams, body: UpdateSubaccountBody, response: { 200: SubaccountSchema } },
    },
    async (req) => subaccountView(await deps.uow.write((tx) => updateSubaccount(tx, req.auth, req.params.id, req.body))),
  );

  r.get(
    '/v1/agency/summary',
    { config: agencyLevel, schema: { tags: ['agency'], summary: 'Per sub-account numbers, messages and spend this month', response: { 200: AgencySummarySchema } } },
    async (req) => (await deps.uow.read((tx) => agencySummary(tx, req.auth))),
  );
}
