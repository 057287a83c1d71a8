import type { ApiClient } from '../client/client.js';
import type { CreatePortBody, Port, PortCheck, PortDocumentBody } from '../schemas/ports.js';
import type { PortStatus } from '../values/registration.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { endpoint, pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Ports; contract §7.
const portParser = responseParser('PortSchema');
const portCheckParser = responseParser('PortCheckSchema');

export const portEndpoints = {
  create: { method: 'POST', path: '/v1/ports' },
  check: { method: 'POST', path: '/v1/ports/check' },
  get: endpoint({ method: 'GET', path: '/v1/ports/{id}', schema: 'PortSchema' }),
  attach: { method: 'POST', path: '/v1/ports/{id}/documents' },
  submit: { method: 'POST', path: '/v1/ports/{id}/submit' },
  cancel: { method: 'POST', path: '/v1/ports/{id}/cancel' },
} as const satisfies Record<string, EndpointRef>;

export async function checkPortability(client: ApiClient, phoneNumbers: string[]): Promise<PortCheck> {
  return (await client.request({ method: 'POST', path: portEndpoints.check.path, body: { phoneNumbers }, schema: portCheckParser })).data;
}

/** spec: conventions 7 — POST /v1/ports accepts an Idempotency-Key (generated unless given). */
export async function createPort(client: ApiClient, body: CreatePortBody, opts: { idempotencyKey?: string } = {}): Promise<Port> {
  return (await client.request({ method: 'POST', path: portEndpoints.create.path, body, schema: portParser, idempotencyKey: opts.idempotencyKey })).data;
}

export async function attachPortDocument(client: ApiClient, id: string, body: PortDocumentBody): Promise<Port> {
  return (await client.request({ method: 'POST', path: pathOf(portEndpoints.attach, { id }), body, schema: portParser })).data;
}

/** contract §7: needs an `loa` and a `bill` attached, else 409. */
export async function submitPort(client: ApiClient, id: string): Promise<Port> {
  return (await client.request({ method: 'POST', path: pathOf(portEndpoints.submit, { id }), schema: portParser })).data;
}

export async function getPort(client: ApiClient, id: string): Promise<Port> {
  return (await client.request({ method: 'GET', path: pathOf(portEndpoints.get, { id }), schema: portParser })).data;
}

export async function cancelPort(client: ApiClient, id: string): Promise<Port> {
  return (await client.request({ method: 'POST', path: pathOf(portEndpoints.cancel, { id }), schema: portParser })).data;
}

/** GET /v1/ports, newest first. */
export const portList = listEndpoint<Port, PortListFilter>({ path: '/v1/ports', row: 'PortSchema' });
export type PortListFilter = { status?: PortStatus };
