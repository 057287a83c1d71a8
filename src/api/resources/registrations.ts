import type { ApiClient } from '../client/client.js';
import type { CampaignDraft } from '../schemas/campaigns.js';
import type { BusinessInfoBody, PredictBody, Prediction, Registration, RegistrationBody } from '../schemas/registrations.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Registration inputs; contract §7.
const registrationParser = responseParser('RegistrationSchema');
const draftParser = responseParser('CampaignContentSchema');
const predictionParser = responseParser('PredictionSchema');

/** POST /v1/registrations: the brand and its first campaign, both or neither (contract §7). */
export const registrationEndpoints = {
  create: { method: 'POST', path: '/v1/registrations' },
  draft: { method: 'POST', path: '/v1/registrations/draft' },
  predict: { method: 'POST', path: '/v1/registrations/predict' },
} as const satisfies Record<string, EndpointRef>;

export async function submitRegistration(client: ApiClient, body: RegistrationBody, opts: { idempotencyKey?: string } = {}): Promise<Registration> {
  return (await client.request({ method: 'POST', path: registrationEndpoints.create.path, body, schema: registrationParser, idempotencyKey: opts.idempotencyKey })).data;
}

/** POST /v1/registrations/draft: a campaign create request (without brandId) written from business info. */
export async function draftRegistration(client: ApiClient, body: BusinessInfoBody): Promise<CampaignDraft> {
  return (await client.request({ method: 'POST', path: registrationEndpoints.draft.path, body, schema: draftParser })).data;
}

/** POST /v1/registrations/predict: the approval prediction's checks, score and band. */
export async function predictRegistration(client: ApiClient, body: PredictBody): Promise<Prediction> {
  return (await client.request({ method: 'POST', path: registrationEndpoints.predict.path, body, schema: predictionParser })).data;
}
