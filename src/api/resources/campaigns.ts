import type { ApiClient } from '../client/client.js';
import type { Campaign, CampaignSummary, CreateCampaignBody, UpdateCampaignBody } from '../schemas/campaigns.js';
import type { CampaignStatus } from '../values/registration.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Campaign (10DLC); contract §7.
const campaignParser = responseParser('CampaignSchema');
const campaignPath = (id: string, action = ''): string => `/v1/campaigns/${encodeURIComponent(id)}${action}`;

export const campaignEndpoints = {
  create: { method: 'POST', path: '/v1/campaigns' },
} as const satisfies Record<string, EndpointRef>;

export async function createCampaign(client: ApiClient, body: CreateCampaignBody): Promise<Campaign> {
  return (await client.request({ method: 'POST', path: campaignEndpoints.create.path, body, schema: campaignParser })).data;
}

/** GET /v1/campaigns: campaign summaries (spec: Campaign summary), newest first. */
export const campaignList = listEndpoint<CampaignSummary, CampaignListFilter>({ path: '/v1/campaigns', row: 'CampaignSummarySchema' });
export type CampaignListFilter = { status?: CampaignStatus; brandId?: string };

export async function getCampaign(client: ApiClient, id: string): Promise<Campaign> {
  return (await client.request({ method: 'GET', path: campaignPath(id), schema: campaignParser })).data;
}

export async function updateCampaign(client: ApiClient, id: string, body: UpdateCampaignBody): Promise<Campaign> {
  return (await client.request({ method: 'PATCH', path: campaignPath(id), body, schema: campaignParser })).data;
}

/** contract §7: only a rejected campaign; counts a remediation attempt. */
export async function resubmitCampaign(client: ApiClient, id: string): Promise<Campaign> {
  return (await client.request({ method: 'POST', path: campaignPath(id, '/resubmit'), schema: campaignParser })).data;
}
