import type { ApiClient } from '../client/client.js';
import type { Email, SendEmailBody } from '../schemas/email.js';
import type { EmailStatus } from '../values/email.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint. spec: Email resource, Send email body; contract §8.
const emailParser = responseParser('EmailSchema');
const emailEventsParser = responseParser('EmailEventsSchema');

export const emailEndpoints = {
  send: { method: 'POST', path: '/v1/emails' },
  get: { method: 'GET', path: '/v1/emails/{id}' },
  timeline: { method: 'GET', path: '/v1/emails/{id}/events' },
} as const satisfies Record<string, EndpointRef>;

export interface SentEmail {
  email: Email;
  /** `Idempotent-Replayed: true`: the key was used before and this is the original email. */
  replayed: boolean;
}

/** POST /v1/emails → 201 `queued`. `idempotencyKey` fixes the key (cli.md: generated unless given; the same on every retry). */
export async function sendEmail(client: ApiClient, body: SendEmailBody, opts: { idempotencyKey?: string } = {}): Promise<SentEmail> {
  const res = await client.request({ method: 'POST', path: emailEndpoints.send.path, body, schema: emailParser, idempotencyKey: opts.idempotencyKey });
  return { email: res.data, replayed: res.headers['idempotent-replayed'] === 'true' };
}

export async function getEmail(client: ApiClient, id: string): Promise<Email> {
  return (await client.request({ method: 'GET', path: pathOf(emailEndpoints.get, { id }), schema: emailParser })).data;
}

/** GET /v1/emails/{id}/events: the per-recipient timeline, oldest first (contract §8). */
export async function emailTimeline(client: ApiClient, id: string) {
  return (await client.request({ method: 'GET', path: pathOf(emailEndpoints.timeline, { id }), schema: emailEventsParser })).data.data;
}

/** GET /v1/emails (an extension of the local service), newest first. */
export const emailList = listEndpoint<Email, EmailListFilter>({ path: '/v1/emails', row: 'EmailSchema' });
export type EmailListFilter = { status?: EmailStatus };
