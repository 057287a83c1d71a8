import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CampaignContentBody } from '../../api/schemas/campaigns.js';
import { BusinessInfoBody, PredictBody, PredictionSchema } from '../../api/schemas/registrations.js';
import { DRAFT_SAMPLES, PREDICTION_BAND_FLOORS, CAMPAIGN_APPROVAL_SCORE } from '../../api/values/registration.js';
import type { ServiceDeps } from '../deps.js';
import { draftCampaign } from '../domain/registration/draft.js';
import { predictForActor } from '../domain/registration/prediction-request.js';

// contract §7: drafting a campaign from business info and the approval prediction. Both are pure
// computations (nothing is stored), so they answer 200 and need no view: the domain returns the API
// shape itself (a campaign create request, a prediction). Decisions are in the descriptions, so they
// land in /openapi.json.

export function registrationToolsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['registration'];

  r.post(
    '/v1/registrations/draft',
    {
      schema: {
        tags,
        summary: 'Draft a campaign from business info',
        description: [
          `A campaign create request without \`brandId\`, written from the inputs (nothing is stored): a description, ${DRAFT_SAMPLES.min} to ${DRAFT_SAMPLES.max} sample messages naming the business with opt-out language,`,
          'opt-in details for `optInChannel` with the consent and its disclosures, keywords and messages for opt-in, opt-out and help,',
          'links from `website` (its /privacy and /terms), and a `useCase` chosen from the words of the description (several matches: `MIXED` with `subUsecases`; none: `LOW_VOLUME`).',
          'Add `brandId` and send it to `POST /v1/campaigns`, or use it as the campaign of `POST /v1/registrations`.',
        ].join('\n'),
        body: BusinessInfoBody,
        response: { 200: CampaignContentBody },
      },
    },
    async (req) => draftCampaign(req.body),
  );

  r.post(
    '/v1/registrations/predict',
    {
      schema: {
        tags,
        summary: 'Predict whether a campaign will be approved',
        description: [
          'A transparent rule engine (nothing is stored): each rule is one check with a stable id; each failed check gives one suggestion.',
          `The score adds the weights of the passed checks (0-100; prohibited SHAFT content caps it at a low score); band \`high\` from ${PREDICTION_BAND_FLOORS.high}, \`medium\` from ${PREDICTION_BAND_FLOORS.medium}, else \`low\`.`,
          `The registry approves a campaign scoring at least ${CAMPAIGN_APPROVAL_SCORE}.`,
          'Every field is optional: a missing field fails the checks that need it. Without `brand`, a `campaign.brandId` is read from your brands (`404 not_found` when it is not one of them).',
        ].join('\n'),
        body: PredictBody,
        response: { 200: PredictionSchema },
      },
    },
    async (req) => (await deps.uow.write((tx) => predictForActor(tx, req.auth, req.body))),
  );
}
