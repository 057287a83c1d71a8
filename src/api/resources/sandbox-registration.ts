import type { ApiClient } from '../client/client.js';
import type { Brand } from '../schemas/brands.js';
import type { Campaign } from '../schemas/campaigns.js';
import type { Port } from '../schemas/ports.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// contract §9: the registry's and the losing carrier's verdicts, at once. One function per endpoint.
const brandParser = responseParser('BrandSchema');
const campaignParser = responseParser('CampaignSchema');
const portParser = responseParser('PortSchema');

export const sandboxDecisionEndpoints = {
  brand: { method: 'POST', path: '/v1/sandbox/brands/{id}/decision' },
  campaign: { method: 'POST', path: '/v1/sandbox/campaigns/{id}/decision' },
  port: { method: 'POST', path: '/v1/sandbox/ports/{id}/decision' },
} as const satisfies Record<string, EndpointRef>;

/** The verdict as sent: `{decision, reason?}`, the shape of the toll-free decision (contract §9). */
export interface SandboxDecision {
  decision: string;
  reason?: string;
  focDate?: string;
}

export async function decideBrand(client: ApiClient, id: string, body: SandboxDecision): Promise<Brand> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxDecisionEndpoints.brand, { id }), body, schema: brandParser })).data;
}

export async function decideCampaign(client: ApiClient, id: string, body: SandboxDecision): Promise<Campaign> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxDecisionEndpoints.campaign, { id }), body, schema: campaignParser })).data;
}

export async function decidePort(client: ApiClient, id: string, body: SandboxDecision): Promise<Port> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxDecisionEndpoints.port, { id }), body, schema: portParser })).data;
}
