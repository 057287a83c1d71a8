import { z } from 'zod';

// spec: Global conventions 6 — the page envelope shared by every list.
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    data: z.array(item),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  });
}

export type Page<T> = { data: T[]; hasMore: boolean; nextCursor: string | null };

// contract §2: limit default 20, 1..100; cursors are opaque.
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

export const ListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().min(1).optional(),
  format: z.enum(['array']).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

// spec: Global conventions 6 — the Accept value that asks for a bare array.
export const BARE_ARRAY_MEDIA_TYPE = 'application/vnd.service.list+json';
