import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AgencySummarySchema, CreateSubaccountBody, SubaccountSchema, UpdateSubaccountBody } from '../../api/schemas/subaccounts.js';
import { ListQuerySchema } from '../../api/schemas/page.js';
import { IdParams } from '../../api/schemas/common.js';
import type { ServiceDeps } from '../deps.js';
import { assertAgency, createAccount, getSubaccount, updateSubaccount } from '../domain/accounts.js';
import { agencySummary } from '../domain/agency.js';
import { subaccountView } from '../views.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// contract §3: sub-accounts and the agency summary. Agency-level: they reject Service-Subaccount.
const agencyLevel = { agencyLevel: true };

export function subaccountRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/subaccounts',
    { config: agencyLevel, schema: { tags: ['subaccounts'], summary: 'Create a sub-account (agency only)', body: CreateSubaccountBody, response: { 201: SubaccountSchema } } },
    async (req, reply) => {
      assertAgency(req.auth.caller);
      const created = commitOnce(deps, req, 201, () =>
        subaccountView(createAccount(deps.accounts, deps.clock, { name: req.body.name, parentId: req.auth.caller.id, isAgency: false })),
      );
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/subaccounts',
    { config: agencyLevel, schema: { tags: ['subaccounts'], summary: 'List sub-accounts (agency only)', querystring: ListQuerySchema, response: { 200: listResponse(SubaccountSchema) } } },
    async (req, reply) => {
      assertAgency(req.auth.caller);
      const page = deps.accounts.listChildren(req.auth.caller.id, req.query.limit, req.query.cursor);
      return sendList(req, reply, { ...page, data: page.data.map(subaccountView) });
    },
  );

  r.get(
    '/v1/subaccounts/:id',
    { config: agencyLevel, schema: { tags: ['subaccounts'], summary: 'Get a sub-account', params: IdParams, response: { 200: SubaccountSchema } } },
    async (req) => subaccountView(getSubaccount(deps.accounts, req.auth.caller, req.params.id)),
  );

  r.patch(
    '/v1/subaccounts/:id',
    {
      config: agencyLevel,
      schema: { tags: ['subaccounts'], summary: 'Rename, suspend or resume a sub-account', params: IdParams, body: UpdateSubaccountBody, response: { 200: SubaccountSchema } },
    },
    async (req) => subaccountView(updateSubaccount(deps.accounts, deps.clock, req.auth.caller, req.params.id, req.body)),
  );

  r.get(
    '/v1/agency/summary',
    { config: agencyLevel, schema: { tags: ['agency'], summary: 'Per sub-account numbers, messages and spend this month', response: { 200: AgencySummarySchema } } },
    async (req) => {
      assertAgency(req.auth.caller);
      return agencySummary(deps, req.auth.caller.id);
    },
  );
}
