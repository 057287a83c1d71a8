import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BrandRegistrationBody, BrandSchema, ListBrandsQuery, UpdateBrandBody, VettingBody } from '../../api/schemas/brands.js';
import { IdParams } from '../../api/schemas/common.js';
import type { ServiceDeps } from '../deps.js';
import { createBrand, getBrand, listBrands, resubmitBrand, updateBrand, vetBrand } from '../domain/registration/brands.js';
import { brandView } from '../views/brands.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';
import { requestOrigin } from '../http/origin.js';

// contract §7 (brands), spec: Brand. Decisions are in the descriptions, so they land in /openapi.json.

const tags = ['registration'];
const LIFECYCLE =
  'A registered brand is `submitted`; the registry decides it 1 h later on the service clock: `PRIVATE_PROFIT`/`PUBLIC_PROFIT` without `ein` → `rejected` (with `rejectionReason`, identity `UNVERIFIED`), anything else → `approved` with a `tcrBrandId` and identity `VERIFIED`; its registration\'s draft campaign is then submitted. `complianceUrls` (absolute, on the address you called) are on reads, creates and updates only; `compliancePages` shows the hosted pages\' texts (generated from the brand until you set your own).';

export function brandsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/brands',
    {
      schema: {
        tags,
        summary: 'Register a 10DLC brand',
        description: `201 \`submitted\`; \`mock: true\` registers a free test brand, \`approved\` at once with a \`tcrBrandId\` and identity \`SELF_DECLARED\` (no charge, no vetting). A non-mock brand costs the brand registration price (live keys only). ${LIFECYCLE}`,
        body: BrandRegistrationBody,
        response: { 201: BrandSchema },
      },
    },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => brandView(await createBrand(tx, req.auth, req.body), requestOrigin(req)));
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/brands',
    {
      schema: { tags, summary: "List the account's brands, newest first", description: 'Filter `status`. Keyset-paged; `?format=array` answers a bare array.', querystring: ListBrandsQuery, response: { 200: listResponse(BrandSchema) } },
    },
    async (req, reply) => {
      const { limit, cursor, status } = req.query;
      const page = await deps.uow.read((tx) => listBrands(tx, req.auth, { status }, limit, cursor));
      const origin = requestOrigin(req);
      return sendList(req, reply, { ...page, data: page.data.map((b) => brandView(b, origin)) });
    },
  );

  r.get(
    '/v1/brands/:id',
    { schema: { tags, summary: 'Get a brand', params: IdParams, response: { 200: BrandSchema } } },
    async (req) => brandView(await deps.uow.read((tx) => getBrand(tx, req.auth, req.params.id)), requestOrigin(req)),
  );

  r.patch(
    '/v1/brands/:id',
    {
      schema: {
        tags,
        summary: 'Update a brand, including the design (`pageConfig`) and texts (`compliancePages`) of its hosted pages',
        description:
          '`pageConfig` and `compliancePages` change in any status (`compliancePages: null` returns to the generated texts). The fields the registry reviews (`legalName`, `entityType`, `ein`, addresses…) change only while the brand is `draft` or `rejected` (then resubmit it); otherwise 409.',
        params: IdParams,
        body: UpdateBrandBody,
        response: { 200: BrandSchema },
      },
    },
    async (req) => brandView((await deps.uow.write(async (tx) => await updateBrand(tx, req.auth, req.params.id, req.body))), requestOrigin(req)),
  );

  r.post(
    '/v1/brands/:id/resubmit',
    {
      schema: {
        tags,
        summary: 'Resubmit a rejected brand',
        description: 'Only a `rejected` brand (else 409) → `submitted`; the registry decides again 1 h later. No new charge. The response has no `complianceUrls`.',
        params: IdParams,
        response: { 200: BrandSchema },
      },
    },
    async (req) => commitOnce(deps, req, 200, async (tx) => brandView(await resubmitBrand(tx, req.auth, req.params.id))),
  );

  r.post(
    '/v1/brands/:id/vetting',
    {
      schema: {
        tags,
        summary: 'Vet an approved brand with an external vetting provider',
        description:
          'Only an `approved`, non-mock brand (a mock brand or a brand not approved → 409). Sets `vettingProvider`, `vettingClass`, a `vettingScore` (40, plus 5 per registration field given, plus 10 for `ENHANCED`, at most 100) and identity `VETTED_VERIFIED`. Costs the brand vetting price (live keys only). The response has no `complianceUrls`.',
        params: IdParams,
        body: VettingBody,
        response: { 200: BrandSchema },
      },
    },
    async (req) => commitOnce(deps, req, 200, async (tx) => brandView(await vetBrand(tx, req.auth, req.params.id, req.body))),
  );
}
