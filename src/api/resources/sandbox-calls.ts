import type { ApiClient } from '../client/client.js';
import type { Call, CallScenarioInput } from '../schemas/calls.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// contract §9: the outside world for voice (local service only).
const callParser = responseParser('CallSchema');

export const sandboxCallEndpoints = {
  place: { method: 'POST', path: '/v1/sandbox/calls' },
  /** Our extension: the caller presses keys during the call. */
  digits: { method: 'POST', path: '/v1/sandbox/calls/{id}/digits' },
  /** Our extension: the caller hangs up. */
  hangup: { method: 'POST', path: '/v1/sandbox/calls/{id}/hangup' },
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

/** POST /v1/sandbox/calls/{id}/digits `{digits}`: the caller presses keys (0-9, * and #) → the Call; 409 once no key reaches the IVR. */
export async function pressSandboxCallDigits(client: ApiClient, id: string, digits: string): Promise<Call> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxCallEndpoints.digits, { id }), body: { digits }, schema: callParser })).data;
}

/** POST /v1/sandbox/calls/{id}/hangup: the caller hangs up → the Call; 409 when it is no longer under way. */
export async function hangUpSandboxCall(client: ApiClient, id: string): Promise<Call> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxCallEndpoints.hangup, { id }), schema: callParser })).data;
}
