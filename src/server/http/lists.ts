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

/** Response schema for a list route: the envelope, or the bare array form. */
export function listResponse<T extends z.ZodTypeAny>(item: T) {
  return z.union([z.object({ data: z.array(item), hasMore: z.boolean(), nextCursor: z.string().nullable() }), z.array(item)]);
}
