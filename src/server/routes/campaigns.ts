import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CampaignSchema, CampaignSummarySchema, CreateCampaignBody, ListCampaignsQuery, UpdateCampaignBody } from '../../api/schemas/campaigns.js';
import { IdParams } from '../../api/schemas/common.js';
import { CAMPAIGN_APPROVAL_SCORE } from '../../api/values/registration.js';
import type { ServiceDeps } from '../deps.js';
import { createCampaign, getCampaign, listCampaigns, resubmitCampaign, shareCampaign, updateCampaign } from '../domain/registration/campaigns.js';
import { campaignSummaryView, campaignView } from '../views/campaigns.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// contract §7 (campaigns), spec: Campaign, Campaign summary.

const tags = ['registration'];
const LIFECYCLE = `A submitted campaign moves to \`dca_review\` 1 h later on the service clock and is decided 24 h after that: \`approved\` (with a \`tcrCampaignId\` and per-carrier \`mnoMetadata\`) when its approval prediction (\`POST /v1/registrations/predict\`) scores at least ${CAMPAIGN_APPROVAL_SCORE}, else \`rejected\` with \`lastRejectionReason\` naming the failed checks. A mock brand's campaign is mock: decided at once by the same rule, \`cnpSharingStatus\` null (it cannot be shared); a real campaign's is \`none\`.`;

export function campaignsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/campaigns',
    {
      schema: {
        tags,
        summary: 'Register a 10DLC campaign under an approved brand',
        description: `201 \`submitted\`. The brand must be \`approved\` (else 409; an unknown brand → 404). A non-mock campaign costs the campaign registration price (live keys only). ${LIFECYCLE}`,
        body: CreateCampaignBody,
        response: { 201: CampaignSchema },
      },
    },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => campaignView(await createCampaign(tx, req.auth, req.body)));
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/campaigns',
    {
      schema: {
        tags,
        summary: "List the account's campaigns as summaries, newest first",
        description: 'Each row: `brandName` (the brand\'s legal name) and `numbers` (how many numbers are assigned to it). Filters `status`, `brandId`. Keyset-paged; `?format=array` answers a bare array.',
        querystring: ListCampaignsQuery,
        response: { 200: listResponse(CampaignSummarySchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status, brandId } = req.query;
      const page = await deps.uow.read((tx) => listCampaigns(tx, req.auth, { status, brandId }, limit, cursor));
      return sendList(req, reply, { ...page, data: page.data.map(campaignSummaryView) });
    },
  );

  r.get(
    '/v1/campaigns/:id',
    { schema: { tags, summary: 'Get a campaign', params: IdParams, response: { 200: CampaignSchema } } },
    async (req) => campaignView(await deps.uow.read((tx) => getCampaign(tx, req.auth, req.params.id))),
  );

  r.patch(
    '/v1/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Update a draft or rejected campaign',
        description: 'Only a `draft` or `rejected` campaign (else 409): one under review or registered is not edited. Resubmit a rejected campaign to send the change.',
        params: IdParams,
        body: UpdateCampaignBody,
        response: { 200: CampaignSchema },
      },
    },
    async (req) => campaignView((await deps.uow.write(async (tx) => await updateCampaign(tx, req.auth, req.params.id, req.body)))),
  );

  r.post(
    '/v1/campaigns/:id/resubmit',
    {
      schema: {
        tags,
        summary: 'Resubmit a rejected campaign',
        description: `Only a \`rejected\` campaign (else 409) → \`submitted\`, \`remediationAttempts\` + 1, reviewed again as at creation. No new charge. ${LIFECYCLE}`,
        params: IdParams,
        response: { 200: CampaignSchema },
      },
    },
    async (req) => commitOnce(deps, req, 200, async (tx) => campaignView(await resubmitCampaign(tx, req.auth, req.params.id))),
  );

  r.post(
    '/v1/campaigns/:id/share',
    {
      schema: {
        tags,
        summary: 'Share an approved campaign with the connectivity partner (CNP)',
        description:
          'Only an approved, non-mock campaign whose `cnpSharingStatus` is `none` or `declined` → `pending`; the partner accepts 1 h later on the service clock (`accepted`). A mock campaign (mock campaigns cannot be shared), a campaign not approved, or one already pending or accepted → 409.',
        params: IdParams,
        response: { 200: CampaignSchema },
      },
    },
    async (req) => commitOnce(deps, req, 200, async (tx) => campaignView(await shareCampaign(tx, req.auth, req.params.id))),
  );
}
