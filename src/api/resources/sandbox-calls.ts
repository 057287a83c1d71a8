import type { ApiClient } from '../client/client.js';
import type { Call, CallScenarioInput } from '../schemas/calls.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// contract §9: the outside world for voice (local service only).
const callParser = responseParser('CallSchema');

export const sandboxCallEndpoints = {
  place: { method: 'POST', path: '/v1/sandbox/calls' },
} as const satisfies Record<string, EndpointRef>;

export interface SandboxCallInput {
  from: string;
  to: string;
  scenario?: CallScenarioInput;
}

/** POST /v1/sandbox/calls `{from, to, scenario}`: an inbound call the call engine runs → the Call. */
export async function placeSandboxCall(client: ApiClient, body: SandboxCallInput): Promise<Call> {
  return (await client.request({ method: 'POST', path: sandboxCallEndpoints.place.path, body, schema: callParser })).data;
}
