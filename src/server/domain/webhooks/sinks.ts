import type { TxDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import { newId } from '../../ids.js';
import { notFound } from '../../errors.js';
import type { SinkRecord, SinkRequestRecord } from '../../storage/sinks-repo.js';
import type { WebhookEndpointRecord } from '../../storage/webhooks-repo.js';
import type { CreateSinkBody } from '../../../api/schemas/sinks.js';
import { SINK_DEFAULT_STATUS, SINK_FAIL_STATUS, SINK_LIMITS, SINK_PATH_PREFIX, SINK_REDACTED_HEADERS } from '../../../api/values/sinks.js';
import { SIGNATURE_HEADER, webhookSignatureCheck, type WebhookSignatureCheck } from '../../../webhooks/verify.js';
import { deleteEndpoint, getEndpoint, insertEndpoint, type WebhookDomainDeps } from './endpoints.js';

// contract §10 (extension, local service only): a sink is a webhook endpoint of the account whose
// URL is the service's own `/sinks/{id}`. What it receives is kept (its newest requests, bodies cut
// to a bounded size: a flooded sink stays small) with whether the signature verified with its
// endpoint's secret and the answer it gave; it answers as it was told (a status, 500 to the first
// attempts of each event, after a delay). It calls nothing outside the service.

type SinkTx = Pick<TxDeps, 'sinks' | 'webhookEndpoints' | 'clock'>;

/** A sink and the endpoint it is. */
export interface SinkWithEndpoint {
  sink: SinkRecord;
  endpoint: WebhookEndpointRecord;
}

/**
 * A new sink and its endpoint, in the caller's write. `origin` is the service's own address as it
 * listens (http/own-origin.ts), never what a request said it called: the sink's URL is one the
 * delivery worker may reach only because it is the service itself.
 */
export async function createSink(d: SinkTx, actor: Actor, body: CreateSinkBody, origin: string): Promise<SinkWithEndpoint & { secret: string }> {
  const id = newId('snk');
  const url = `${origin}${SINK_PATH_PREFIX}${id}`;
  const endpoint = await insertEndpoint(d, actor, { url, events: body.events, description: `sink ${id}` });
  const sink: SinkRecord = {
    id,
    accountId: actor.account.id,
    endpointId: endpoint.id,
    url,
    respondStatus: body.respond?.status ?? SINK_DEFAULT_STATUS,
    failFirst: body.respond?.failFirst ?? 0,
    delayMs: body.respond?.delayMs ?? 0,
    received: 0,
    createdAt: endpoint.createdAt,
  };
  await d.sinks.insert(sink);
  return { sink, endpoint, secret: endpoint.secret };
}

/** The actor's sink with its endpoint, or 404 (another account's is not found either). */
export async function getSink(d: Pick<TxDeps, 'sinks' | 'webhookEndpoints'>, actor: Actor, id: string): Promise<SinkWithEndpoint> {
  const sink = await d.sinks.get(actor.account.id, id);
  if (!sink) throw notFound('sink');
  return { sink, endpoint: await getEndpoint(d, actor, sink.endpointId) };
}

/** Every sink of the account with its endpoint, newest first (bounded: each is one of its endpoints). */
export async function listSinks(d: Pick<TxDeps, 'sinks' | 'webhookEndpoints'>, actor: Actor): Promise<SinkWithEndpoint[]> {
  const endpoints = new Map((await d.webhookEndpoints.listForAccount(actor.account.id)).map((e) => [e.id, e]));
  return (await d.sinks.listForAccount(actor.account.id)).flatMap((sink) => {
    const endpoint = endpoints.get(sink.endpointId);
    return endpoint ? [{ sink, endpoint }] : [];
  });
}

/**
 * Deletes a sink by deleting its endpoint (contract §2: a live key's endpoint is a live key's to
 * delete): the sink, what it kept and the endpoint's delivery log go with it.
 */
export async function deleteSink(d: WebhookDomainDeps & Pick<TxDeps, 'sinks'>, actor: Actor, id: string): Promise<void> {
  const { sink } = await getSink(d, actor, id);
  await deleteEndpoint(d, actor, sink.endpointId);
}

/**
 * A request to a sink as its route read it: the headers, and the body read through once (never held
 * whole): its first bytes, and whether its signature holds for a given secret (the endpoint's at the
 * write: `sinkSignatureCheck` over every piece of the body).
 */
export interface SinkArrival {
  headers: Record<string, string | string[] | undefined>;
  /** The body's first SINK_LIMITS.keptBodyBytes bytes. */
  head: Buffer;
  /** The whole body's length. */
  bytes: number;
  signatureValid: (secret: string) => boolean;
}

/**
 * contract §10: a sink's request is verified over its whole raw body with the endpoint's current
 * secret and a timestamp within 5 minutes of real time (the signature's `t` is wall-clock time).
 * Fed the body piece by piece as it is read.
 */
export const sinkSignatureCheck = (headers: SinkArrival['headers'], secret: string, wallNowMs: number): WebhookSignatureCheck =>
  webhookSignatureCheck(headerValue(headers[SIGNATURE_HEADER.toLowerCase()]), secret, { now: () => wallNowMs });

/**
 * Before a long body is read (one held only in part): the sink must exist (404 otherwise, nothing
 * read) and its endpoint's secret is known, so the body is verified as it streams by.
 */
export async function sinkSecret(d: Pick<TxDeps, 'sinks' | 'webhookEndpoints'>, sinkId: string): Promise<string | undefined> {
  const sink = await d.sinks.getById(sinkId);
  if (!sink) throw notFound('sink');
  return (await d.webhookEndpoints.getById(sink.endpointId))?.secret;
}

/** How the sink answers a request it kept. */
export interface SinkAnswer {
  sinkId: string;
  accountId: string;
  seq: number;
  status: number;
  delayMs: number;
}

const headerValue = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? h.join(', ') : h);

/** The headers as kept: lower-case names (as Node gives them), credentials redacted. */
function keptHeaders(headers: SinkArrival['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = headerValue(value);
    if (text === undefined) continue;
    kept[name] = SINK_REDACTED_HEADERS.includes(name) ? '[redacted]' : text;
  }
  return kept;
}

/**
 * The kept body as text: its first SINK_LIMITS.keptBodyBytes (the route read no more), on a character
 * boundary. NUL becomes U+FFFD: a text column of PostgreSQL cannot hold it, and the kept body is for
 * reading, not for verifying again.
 */
function keptBody(head: Buffer, bytes: number): string {
  let body = head.subarray(0, SINK_LIMITS.keptBodyBytes).toString('utf8');
  // A character cut in two decodes as U+FFFD at the end: drop it.
  if (bytes > SINK_LIMITS.keptBodyBytes && body.endsWith('\uFFFD')) body = body.slice(0, -1);
  return body.includes('\u0000') ? body.replaceAll('\u0000', '\uFFFD') : body;
}

const boundedText = (s: string | undefined, max: number): string | null => (s === undefined || s === '' ? null : s.slice(0, max));

/**
 * A request to `/sinks/{id}`, kept in one write (the caller's), and how to answer it. The position is
 * taken first (the sink's row locked to the COMMIT), then the earlier attempts of the same event are
 * counted: concurrent attempts of one event are counted one after another. An unknown sink is 404.
 */
export async function receiveAtSink(d: Pick<TxDeps, 'sinks' | 'webhookEndpoints' | 'clock' | 'events'>, sinkId: string, arrival: SinkArrival): Promise<SinkAnswer> {
  const sink = await d.sinks.getById(sinkId);
  const seq = sink ? await d.sinks.nextPosition(sink.id) : 0;
  if (!sink || seq === 0) throw notFound('sink');
  const endpoint = await d.webhookEndpoints.getById(sink.endpointId);
  const signatureValid = endpoint !== undefined && arrival.signatureValid(endpoint.secret);
  const eventId = boundedText(headerValue(arrival.headers['service-event-id']), 200);
  const attemptText = headerValue(arrival.headers['service-delivery-attempt']);
  const attempt = attemptText !== undefined && /^\d{1,6}$/.test(attemptText) ? Number(attemptText) : null;
  // spec: the first N attempts of each event fail; a request naming no event is answered as told.
  const earlier = eventId === null || sink.failFirst === 0 ? 0 : await d.sinks.countForEvent(sink.id, eventId);
  const status = eventId !== null && earlier < sink.failFirst ? SINK_FAIL_STATUS : sink.respondStatus;
  const request: SinkRequestRecord = {
    sinkId: sink.id,
    seq,
    id: newId('sreq'),
    receivedAt: d.clock.nowMs(),
    eventId,
    eventType: boundedText(headerValue(arrival.headers['service-event-type']), 200),
    attempt,
    headers: keptHeaders(arrival.headers),
    body: keptBody(arrival.head, arrival.bytes),
    signatureValid,
    answeredStatus: status,
  };
  await d.sinks.keepAt(request, SINK_LIMITS.keptRequests);
  // Its held reads (sink-requests.ts) hear of it once this commits, here or on another replica.
  d.events.touched(sink.accountId, 'sink', sink.id);
  return { sinkId: sink.id, accountId: sink.accountId, seq, status, delayMs: sink.delayMs };
}

/** The client went away before the answer (a delay past its timeout): the request says so. */
export async function answeredNobody(d: Pick<TxDeps, 'sinks'>, answer: Pick<SinkAnswer, 'sinkId' | 'seq'>): Promise<void> {
  await d.sinks.setAnswered(answer.sinkId, answer.seq, null);
}
