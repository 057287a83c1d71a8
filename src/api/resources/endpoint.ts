import type { ApiClient, HttpMethod } from '../client/client.js';
import { responseParser, type ResponseOf, type ResponseSchemaName } from '../parsers.js';

// An endpoint as data, so its path is written once, here, and read by the functions that
// call it, the CLI's plain verbs, completion's id lookups and the fixtures cleanup table. `{name}` in
// a path is a parameter, filled (encoded) by `pathOf`.

export interface EndpointRef {
  method: HttpMethod;
  /** `/v1/voicemails/{id}` */
  path: string;
  /** Agency-level routes never carry the sub-account header (contract §3). */
  agencyLevel?: boolean;
}

/** An endpoint that answers one resource, parsed with the schema called `schema`. */
export interface ItemEndpoint<K extends ResponseSchemaName = ResponseSchemaName> extends EndpointRef {
  schema: K;
}

export const endpoint = <K extends ResponseSchemaName>(e: ItemEndpoint<K>): ItemEndpoint<K> => e;

/** The path with each `{name}` replaced by its parameter, encoded. */
export function pathOf(ref: Pick<EndpointRef, 'path'>, params: Record<string, string>): string {
  return ref.path.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${ref.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

/** A regular expression matching the paths of `ref` (its parameters any one segment). */
export const pathPattern = (ref: Pick<EndpointRef, 'path'>): RegExp =>
  new RegExp(`^${ref.path.replace(/[.*+?^$()|\\]/g, '\\$&').replace(/\{[a-zA-Z]+\}/g, '[^/]+')}$`);

/** GET (or any read) of one resource. */
export async function readOne<K extends ResponseSchemaName>(client: ApiClient, e: ItemEndpoint<K>, params: Record<string, string>): Promise<ResponseOf<K>> {
  return (await client.request({ method: e.method, path: pathOf(e, params), schema: responseParser(e.schema), agencyLevel: e.agencyLevel })).data;
}

/** A call answered with no body to keep (a DELETE). */
export async function callBare(client: ApiClient, e: EndpointRef, params: Record<string, string>): Promise<void> {
  await client.request({ method: e.method, path: pathOf(e, params), agencyLevel: e.agencyLevel });
}

/**
 * An endpoint named in prose, as the API's messages name the call that helps (`top it up with POST
 * /v1/billing/wallet/top-up`, `raise it with PATCH /v1/billing {spendLimitCents}`): the method when
 * given (1), the path (2) and a sketch of the body after it (3); or a bare path (`/v1/agency`).
 */
export const ENDPOINT_IN_TEXT = /(?:\b(GET|POST|PUT|PATCH|DELETE) )?(\/v1\/[A-Za-z0-9_.~%{}/-]*[A-Za-z0-9_~%}-])(?: (\{[^{}]*\}))?/g;

/** The path parameters of `path` by the names of `ref` (a `{name}` left in the text is no value). */
export function paramsOf(ref: Pick<EndpointRef, 'path'>, path: string): Record<string, string> | undefined {
  if (!pathPattern(ref).test(path)) return undefined;
  const params: Record<string, string> = {};
  const given = path.split('/');
  ref.path.split('/').forEach((segment, i) => {
    const name = /^\{([a-zA-Z]+)\}$/.exec(segment)?.[1];
    const value = given[i]!;
    if (name && !/^\{.*\}$/.test(value)) params[name] = decodeURIComponent(value);
  });
  return params;
}
