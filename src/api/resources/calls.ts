import type { ApiClient, StreamResponse } from '../client/client.js';
import type { Call, CallTrace, TransferCallBody } from '../schemas/calls.js';
import type { CALL_DIRECTIONS, CallStatus } from '../values/calls.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { endpoint, pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint; commands never build URLs.
// contract §6 (Call, call trace, recording, transfer).
const callParser = responseParser('CallSchema');
const callTraceParser = responseParser('CallTraceSchema');

export const callEndpoints = {
  get: endpoint({ method: 'GET', path: '/v1/calls/{id}', schema: 'CallSchema' }),
  trace: { method: 'GET', path: '/v1/calls/{id}/trace' },
  recording: { method: 'GET', path: '/v1/calls/{id}/recording' },
  transfer: { method: 'POST', path: '/v1/calls/{id}/transfer' },
} as const satisfies Record<string, EndpointRef>;

/** A call's path, and a tail under it (`/trace`): for callers outside the CLI (svc/testing). */
export const callPath = (id: string, tail = ''): string => `${pathOf(callEndpoints.get, { id })}${tail}`;

/** GET /v1/calls, newest first, filtered by `status` and `direction`. */
export const callList = listEndpoint<Call, CallListFilter>({ path: '/v1/calls', row: 'CallSchema' });
export type CallListFilter = { status?: CallStatus; direction?: (typeof CALL_DIRECTIONS)[number] };

export async function getCall(client: ApiClient, id: string): Promise<Call> {
  return (await client.request({ method: 'GET', path: pathOf(callEndpoints.get, { id }), schema: callParser })).data;
}

/** GET /v1/calls/{id}/trace (contract §6 extension): the engine's decisions in order. */
export async function getCallTrace(client: ApiClient, id: string): Promise<CallTrace> {
  return (await client.request({ method: 'GET', path: pathOf(callEndpoints.trace, { id }), schema: callTraceParser })).data;
}

/** GET /v1/calls/{id}/recording: `audio/wav`, streamed; `404` when the call was not recorded. */
export async function getCallRecording(client: ApiClient, id: string): Promise<StreamResponse> {
  return client.requestStream({ method: 'GET', path: pathOf(callEndpoints.recording, { id }) });
}

/** POST /v1/calls/{id}/transfer `{to}`: only an `in_progress` call, else `409 conflict`. */
export async function transferCall(client: ApiClient, id: string, body: TransferCallBody): Promise<Call> {
  return (await client.request({ method: 'POST', path: pathOf(callEndpoints.transfer, { id }), body, schema: callParser })).data;
}
