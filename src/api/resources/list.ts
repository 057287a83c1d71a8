import type { ApiClient, Query, RequestOptions, ResponseParser } from '../client/client.js';
import type { Page } from '../schemas/page.js';
import { pageParser, type ResponseOf, type ResponseSchemaName } from '../parsers.js';

// conventions 7 for lists: a list endpoint is a descriptor (its path and the schema of one row), and
// these two functions read it. Every page is parsed with the row schema; `listPages` yields one page
// at a time, so `--all` keeps constant memory however long the list is. The row schema is named, not
// imported: pages are parsed by a compiled parser, so a list never loads zod (start-up budget).

export interface ListEndpoint<T, Q extends Query = Query> {
  path: string;
  /** The export name of the row's schema (`MessageSchema`); csv headers are read from it too. */
  row: ResponseSchemaName;
  /** Parses one page of rows. */
  page: ResponseParser<Page<T>>;
  /** Agency-level routes never carry the sub-account header (contract §3). */
  agencyLevel?: boolean;
  /** Only for typing: the filters this list takes besides `limit` and `cursor`. */
  readonly query?: Q;
}

/** The schema names whose rows are exactly `T`. */
export type RowSchemaName<T> = { [K in ResponseSchemaName]: [ResponseOf<K>] extends [T] ? ([T] extends [ResponseOf<K>] ? K : never) : never }[ResponseSchemaName];

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

type CallOptions = Pick<RequestOptions, 'signal' | 'maxAttempts'>;

/** One page of a list. */
export async function listPage<T, Q extends Query>(client: ApiClient, endpoint: ListEndpoint<T, Q>, query: Q & PageQuery, opts: CallOptions = {}): Promise<Page<T>> {
  const res = await client.request({ ...opts, method: 'GET', path: endpoint.path, query, schema: endpoint.page, agencyLevel: endpoint.agencyLevel });
  return res.data;
}

/** Every page from `query.cursor` on, following `nextCursor`, one page at a time. */
export async function* listPages<T, Q extends Query>(client: ApiClient, endpoint: ListEndpoint<T, Q>, query: Q & PageQuery): AsyncGenerator<Page<T>, void, undefined> {
  yield* client.paginate(endpoint.path, query, endpoint.page, { agencyLevel: endpoint.agencyLevel });
}

/**
 * Yields the pages of `pages` one page ahead: as a page is handed out, the request for the next one
 * is already in flight, so the network and the service work while the caller prints (`--all` does
 * not wait for each page to print before asking for the next). Never more than one page is
 * held besides the one being printed, so memory stays flat; the caller's awaited write (drain on a
 * slow stdout) still paces the paging. A failed request surfaces when its page is reached.
 */
export async function* pagesAhead<P>(pages: AsyncIterator<P>): AsyncGenerator<P, void, undefined> {
  let next = pages.next();
  for (;;) {
    const current = await next;
    if (current.done) return;
    next = pages.next();
    // Handled here so an abandoned prefetch (the reader stopped: `| head`) is never an unhandled
    // rejection; awaiting `next` above still throws its error.
    next.catch(() => undefined);
    yield current.value;
  }
}

/** A descriptor, typed by its row and filters: `listEndpoint<Message>({ path, row: 'MessageSchema' })`. */
export const listEndpoint = <T, Q extends Query = Query>(endpoint: { path: string; row: RowSchemaName<T>; agencyLevel?: boolean }): ListEndpoint<T, Q> => ({
  ...endpoint,
  page: pageParser(endpoint.row) as unknown as ResponseParser<Page<T>>,
});
