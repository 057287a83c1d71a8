import type { ApiClient } from '../client/client.js';
import type { Campaign, CampaignSummary, CreateCampaignBody, UpdateCampaignBody } from '../schemas/campaigns.js';
import type { CampaignStatus } from '../values/registration.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { endpoint, pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Campaign (10DLC); contract §7.
const campaignParser = responseParser('CampaignSchema');

export const campaignEndpoints = {
  create: { method: 'POST', path: '/v1/campaigns' },
  get: endpoint({ method: 'GET', path: '/v1/campaigns/{id}', schema: 'CampaignSchema' }),
  update: { method: 'PATCH', path: '/v1/campaigns/{id}' },
  resubmit: { method: 'POST', path: '/v1/campaigns/{id}/resubmit' },
} as const satisfies Record<string, EndpointRef>;

export async function createCampaign(client: ApiClient, body: CreateCampaignBody): Promise<Campaign> {
  return (await client.request({ method: 'POST', path: campaignEndpoints.create.path, body, schema: campaignParser })).data;
}

/** GET /v1/campaigns: campaign summaries (spec: Campaign summary), newest first. */
export const campaignList = listEndpoint<CampaignSummary, CampaignListFilter>({ path: '/v1/campaigns', row: 'CampaignSummarySchema' });
export type CampaignListFilter = { status?: CampaignStatus; brandId?: string };

export async function getCampaign(client: ApiClient, id: string): Promise<Campaign> {
  return (await client.request({ method: 'GET', path: pathOf(campaignEndpoints.get, { id }), schema: campaignParser })).data;
}

export async function updateCampaign(client: ApiClient, id: string, body: UpdateCampaignBody): Promise<Campaign> {
  return (await client.request({ method: 'PATCH', path: pathOf(campaignEndpoints.update, { id }), body, schema: campaignParser })).data;
}

/** contract §7: only a rejected campaign; counts a remediation attempt. */
export async function resubmitCampaign(client: ApiClient, id: string): Promise<Campaign> {
  return (await client.request({ method: 'POST', path: pathOf(campaignEndpoints.resubmit, { id }), schema: campaignParser })).data;
}
