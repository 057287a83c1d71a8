import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BARE_ARRAY_MEDIA_TYPE, type Page } from '../../api/schemas/page.js';

// spec: Global conventions 6 — `?format=array` or the Accept value returns a bare array.
export function wantsBareArray(req: FastifyRequest): boolean {
  const q = req.query as { format?: string } | undefined;
  if (q?.format === 'array') return true;
  return (req.headers.accept ?? '').includes(BARE_ARRAY_MEDIA_TYPE);
}

/** The one way every list answers: the page envelope, or its rows when a bare array was asked for. */
export function sendList<T>(req: FastifyRequest, reply: FastifyReply, page: Page<T>): Page<T> | T[] {
  if (wantsBareArray(req)) {
    reply.type(BARE_ARRAY_MEDIA_TYPE);
    return page.data;
  }
  return page;
}

/**
 * For the hot lists (messages, conversations, the events feed): their rows are views, which
 * build every spec field and nothing else (views/README.md), so the page is written with
 * JSON.stringify instead of being encoded again row by row through the zod response schema — 0.7 ms
 * of a 100-row page of messages in the CPU profile (`--all` reads thousands of pages). The schema
 * still documents the route; tests parse these pages with it.
 */
export function writeViewsAsIs(reply: FastifyReply): FastifyReply {
  return reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
}

/** Response schema for a list route: the envelope, or the bare array form. */
export function listResponse<T extends z.ZodTypeAny>(item: T) {
  return z.union([z.object({ data: z.array(item), hasMore: z.boolean(), nextCursor: z.string().nullable() }), z.array(item)]);
}
