import { z } from 'zod';
import type { CatalogRoute, RouteCatalog } from './route-catalog.js';
import { idempotencyKeyParameter, subaccountParameter, type HeaderParameter } from './request-headers.js';
import { ErrorEnvelopeSchema, ERROR_STATUS } from '../../api/schemas/errors.js';

import { SVC_VERSION as PKG_VERSION } from '../../api/values/version.js'; // spec: Versioning 2 — interface version 0.1.0

/** Named schemas (`.meta({id})`) collected for components.schemas, keyed `Name` or `NameInput`. */
type Components = Record<string, unknown>;

/**
 * zod emits named sub-schemas as `$defs` with `#/$defs/X` refs; in an OpenAPI document those must
 * live in components.schemas, so they are hoisted and the refs rewritten.
 */
function toSchema(s: unknown, io: 'input' | 'output', components: Components): Record<string, unknown> {
  const json = z.toJSONSchema(s as z.ZodType, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  const suffix = io === 'input' ? 'Input' : '';
  const defs = (json.$defs ?? {}) as Record<string, unknown>;
  delete json.$defs;
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(v)) {
        out[k] = k === '$ref' && typeof val === 'string' && val.startsWith('#/$defs/') ? `#/components/schemas/${val.slice(8)}${suffix}` : rewrite(val);
      }
      return out;
    }
    return v;
  };
  for (const [name, def] of Object.entries(defs)) components[`${name}${suffix}`] ??= rewrite(def);
  return rewrite(json) as Record<string, unknown>;
}

const openapiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

interface RouteSchema {
  summary?: string;
  description?: string;
  tags?: string[];
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  headers?: unknown;
  response?: Record<string, unknown>;
  hide?: boolean;
  /** Raw request body types (no JSON body schema), e.g. the voicemail greeting upload. */
  consumes?: string[];
  /** Raw response types (no JSON response schema), e.g. /media files. */
  produces?: string[];
  /** Headers this route alone reads (a route PUT's `If-Match`), declared as they are. */
  headerParameters?: HeaderParameter[];
}

/**
 * The headers the service's own hooks read on this route: `Idempotency-Key` on every authenticated
 * POST (contract §2), `Service-Subaccount` wherever an agency key may act on a sub-account (not on
 * agency-level routes, contract §3, nor on service-wide sandbox acts, which refuse it).
 */
function hookHeaders(r: CatalogRoute): HeaderParameter[] {
  if (r.config.public) return [];
  const out: HeaderParameter[] = [];
  if (r.method === 'POST') out.push(idempotencyKeyParameter());
  if (!r.config.agencyLevel && !r.config.serviceWide) out.push(subaccountParameter());
  return out;
}

function parameters(schema: unknown, where: 'query' | 'path' | 'header', components: Components): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input', components) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
}

/** `code status` of the error codes whose status is in [lo, hi), for response descriptions. */
const errorCodes = (lo: number, hi: number): string =>
  Object.entries(ERROR_STATUS)
    .filter(([, s]) => s >= lo && s < hi)
    .map(([c, s]) => `${c} ${s}`)
    .join(', ');
const envelopeContent = () => ({ 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } });

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with
 * (conventions 6: one schema, three uses). Built once per app from the route catalog.
 */
export function buildOpenApiDocument(catalog: RouteCatalog, baseDescription: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Components = {};
  for (const r of catalog.routes) {
    const schema = (r.schema ?? {}) as RouteSchema;
    if (schema.hide) continue;
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${r.url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: schema.summary ?? `${r.method} ${r.url}`,
      tags: schema.tags ?? [r.url.split('/')[2] ?? 'service'],
    };
    if (schema.description) op.description = schema.description;
    const params = [
      ...parameters(schema.params, 'path', components),
      ...parameters(schema.querystring, 'query', components),
      ...parameters(schema.headers, 'header', components),
      ...(schema.headerParameters ?? []),
      ...hookHeaders(r),
    ];
    if (params.length) op.parameters = params;
    if (schema.body) {
      // A body every field of which is optional may be left out altogether (`.optional()`).
      const optional = (schema.body as { safeParse?: (v: unknown) => { success: boolean } }).safeParse?.(undefined).success === true;
      op.requestBody = { required: !optional, content: { 'application/json': { schema: toSchema(schema.body, 'input', components) } } };
    } else if (schema.consumes) {
      // A raw body (an audio upload): the bytes as sent, in one of these types.
      op.requestBody = { required: true, content: Object.fromEntries(schema.consumes.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])) };
    }
    const responses: Record<string, unknown> = {};
    for (const [status, s] of Object.entries(schema.response ?? {})) {
      responses[status] =
        status === '204'
          ? { description: 'No content' }
          : { description: 'Success', content: { 'application/json': { schema: toSchema(s, 'output', components) } } };
    }
    // Every operation can be refused (a bad body or query, a key, a rate limit, a missing id): the
    // client errors are named as a 4XX range, so readers and linters see them (the document is
    // lint-clean); `default` still covers the rest, with the same envelope.
    responses['4XX'] = { description: `Refused: the error envelope; status matches the code (${errorCodes(400, 500)})`, content: envelopeContent() };
    responses.default = { description: `Error envelope; status matches the code (${errorCodes(0, 1000)})`, content: envelopeContent() };
    if (schema.produces) {
      // A raw response (a media file) in one of these types.
      responses['200'] = { description: 'The file', content: Object.fromEntries(schema.produces.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])) };
    }
    op.responses = responses;
    if ((r.schema as { security?: unknown } | undefined)?.security !== undefined) op.security = [];
    (paths[openapiPath(r.url)] ??= {})[r.method.toLowerCase()] = op;
  }
  // ErrorEnvelope is a named schema, so toSchema hoists it into components and answers a $ref to it;
  // storing that answer under its own name made a self-referencing pointer no tool can resolve.
  const envelope = toSchema(ErrorEnvelopeSchema, 'output', components);
  if (envelope.$ref !== '#/components/schemas/ErrorEnvelope') components.ErrorEnvelope ??= envelope;
  return {
    openapi: '3.1.0',
    info: { title: 'svc API', version: PKG_VERSION, description: baseDescription },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_live_… or sk_test_… API key' } },
      schemas: components,
    },
  };
}
