import type { ApiClient, ResponseHeaders } from '../client/client.js';
import type { GreetingUpload, PutRouteInput, RouteResponse, SavedRoute } from '../schemas/routes.js';
import type { GreetingAudioType } from '../values/routes.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Numbers (route, voicemail greeting); contract §5.
// `idOrPhone` is a number id (`num_…`) or its E.164 form; the service resolves either.
const routeResponseParser = responseParser('RouteResponseSchema');
const savedRouteParser = responseParser('SavedRouteSchema');
const greetingUploadParser = responseParser('GreetingUploadSchema');


export const routeEndpoints = {
  get: { method: 'GET', path: '/v1/numbers/{id}/route' },
  put: { method: 'PUT', path: '/v1/numbers/{id}/route' },
  greeting: { method: 'PUT', path: '/v1/numbers/{id}/voicemail-greeting' },
} as const satisfies Record<string, EndpointRef>;

/** A response with the route's ETag (contract §5 extension): pass it back as `ifMatch`. */
export interface Tagged<T> {
  data: T;
  etag: string | undefined;
}

const etagOf = (headers: ResponseHeaders): string | undefined => {
  const v = headers.etag;
  return Array.isArray(v) ? v[0] : v;
};

/** GET /v1/numbers/{id}/route → `{route, features}` and its ETag. */
export async function getRoute(client: ApiClient, idOrPhone: string): Promise<Tagged<RouteResponse>> {
  const res = await client.request({ method: 'GET', path: pathOf(routeEndpoints.get, { id: idOrPhone }), schema: routeResponseParser });
  return { data: res.data, etag: etagOf(res.headers) };
}

/**
 * PUT /v1/numbers/{id}/route: replaces the route wholesale. With `ifMatch` (an ETag from getRoute or
 * an earlier put) the service refuses with 409 `conflict` when the route changed meanwhile.
 */
export async function putRoute(client: ApiClient, idOrPhone: string, body: PutRouteInput, opts: { ifMatch?: string } = {}): Promise<Tagged<SavedRoute>> {
  const headers = opts.ifMatch === undefined ? undefined : { 'If-Match': opts.ifMatch };
  const res = await client.request({ method: 'PUT', path: pathOf(routeEndpoints.put, { id: idOrPhone }), body, headers, schema: savedRouteParser });
  return { data: res.data, etag: etagOf(res.headers) };
}

/** PUT /v1/numbers/{id}/voicemail-greeting: the raw recording → `{greetingAudioUrl}` (a new URL each time). */
export async function uploadGreeting(client: ApiClient, idOrPhone: string, audio: Buffer, contentType: GreetingAudioType): Promise<GreetingUpload> {
  return (await client.request({ method: 'PUT', path: pathOf(routeEndpoints.greeting, { id: idOrPhone }), body: audio, contentType, schema: greetingUploadParser })).data;
}
