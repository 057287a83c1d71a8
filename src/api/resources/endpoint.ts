import type { ApiClient, HttpMethod } from '../client/client.js';
import { responseParser, type ResponseOf, type ResponseSchemaName } from '../parsers.js';

// issue 28: an endpoint as data, so its path is written once, here, and read by the functions that
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
