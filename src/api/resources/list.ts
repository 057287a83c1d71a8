import type { ZodType } from 'zod';
import type { ApiClient, Query, RequestOptions } from '../client/client.js';
import { pageOf, type Page } from '../schemas/page.js';

// conventions 7 for lists: a list endpoint is a descriptor (its path and the schema of one row), and
// these two functions read it. Every page is parsed with the row schema; `listPages` yields one page
// at a time, so `--all` keeps constant memory however long the list is.

export interface ListEndpoint<T, Q extends Query = Query> {
  path: string;
  itemSchema: ZodType<T>;
  /** Agency-level routes never carry the sub-account header (contract §3). */
  agencyLevel?: boolean;
  /** Only for typing: the filters this list takes besides `limit` and `cursor`. */
  readonly query?: Q;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

type CallOptions = Pick<RequestOptions, 'signal' | 'maxAttempts'>;

const pageSchemas = new WeakMap<ZodType, ZodType>();
/** The page envelope around an item schema, built once per schema. */
function pageSchema<T>(item: ZodType<T>): ZodType<Page<T>> {
  let schema = pageSchemas.get(item);
  if (!schema) pageSchemas.set(item, (schema = pageOf(item as never) as unknown as ZodType));
  return schema as ZodType<Page<T>>;
}

/** One page of a list. */
export async function listPage<T, Q extends Query>(client: ApiClient, endpoint: ListEndpoint<T, Q>, query: Q & PageQuery, opts: CallOptions = {}): Promise<Page<T>> {
  const res = await client.request({ ...opts, method: 'GET', path: endpoint.path, query, schema: pageSchema(endpoint.itemSchema), agencyLevel: endpoint.agencyLevel });
  return res.data;
}

/** Every page from `query.cursor` on, following `nextCursor`, one page at a time. */
export async function* listPages<T, Q extends Query>(client: ApiClient, endpoint: ListEndpoint<T, Q>, query: Q & PageQuery): AsyncGenerator<Page<T>, void, undefined> {
  yield* client.paginate(endpoint.path, query, endpoint.itemSchema, { agencyLevel: endpoint.agencyLevel });
}

/** A descriptor, typed by its row and filters. */
export const listEndpoint = <T, Q extends Query = Query>(endpoint: ListEndpoint<T, Q>): ListEndpoint<T, Q> => endpoint;
