import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BrandSchema } from '../../api/schemas/brands.js';
import { CampaignSchema } from '../../api/schemas/campaigns.js';
import { IdParams } from '../../api/schemas/common.js';
import { RegistryDecisionBody } from '../../api/schemas/registrations.js';
import type { ServiceDeps } from '../deps.js';
import { sandboxBrandDecision } from '../domain/registration/brands.js';
import { sandboxCampaignDecision } from '../domain/registration/campaigns.js';
import { brandView } from '../views/brands.js';
import { campaignView } from '../views/campaigns.js';
import { requestOrigin } from '../http/origin.js';

// contract §9: the 10DLC registry's verdicts, at once.
export function sandboxRegistrationRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/sandbox/brands/:id/decision',
    {
      schema: {
        tags: ['sandbox'],
        summary: "The registry's brand verdict, at once",
        description:
          '`{decision: approved|rejected, reason?}` decides a `submitted` brand now (the 1 h decision then does nothing); anything else → 409. Approved: `tcrBrandId`, identity `VERIFIED`, its registration\'s draft campaign is submitted. Rejected: `rejectionReason` (a default text when omitted).',
        params: IdParams,
        body: RegistryDecisionBody,
        response: { 200: BrandSchema },
      },
    },
    async (req) => brandView((await deps.uow.write(async (tx) => await sandboxBrandDecision(tx, req.auth, req.params.id, req.body))), requestOrigin(req)),
  );

  r.post(
    '/v1/sandbox/campaigns/:id/decision',
    {
      schema: {
        tags: ['sandbox'],
        summary: "The registry's campaign verdict, at once",
        description:
          '`{decision: approved|rejected, reason?}` decides a `submitted` or `dca_review` campaign now, whatever its prediction (the clock\'s review then does nothing); anything else → 409. Approved: `tcrCampaignId` and `mnoMetadata`. Rejected: `lastRejectionReason` (a default text when omitted).',
        params: IdParams,
        body: RegistryDecisionBody,
        response: { 200: CampaignSchema },
      },
    },
    async (req) => campaignView((await deps.uow.write(async (tx) => await sandboxCampaignDecision(tx, req.auth, req.params.id, req.body)))),
  );
}
