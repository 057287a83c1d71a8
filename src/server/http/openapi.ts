import { z } from 'zod';
import type { RouteCatalog } from './route-catalog.js';
import { ErrorEnvelopeSchema, ERROR_STATUS } from '../../api/schemas/errors.js';

const PKG_VERSION = '0.1.0'; // spec: Versioning 2 — interface version 0.1.0

const toSchema = (s: unknown, io: 'input' | 'output'): Record<string, unknown> => {
  const json = z.toJSONSchema(s as z.ZodType, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
};

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
}

function parameters(schema: unknown, where: 'query' | 'path' | 'header'): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with
 * (conventions 6: one schema, three uses). Built once per app from the route catalog.
 */
export function buildOpenApiDocument(catalog: RouteCatalog, baseDescription: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of catalog.routes) {
    const schema = (r.schema ?? {}) as RouteSchema;
    if (schema.hide) continue;
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${r.url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: schema.summary ?? `${r.method} ${r.url}`,
      tags: schema.tags ?? [r.url.split('/')[2] ?? 'service'],
    };
    if (schema.description) op.description = schema.description;
    const params = [...parameters(schema.params, 'path'), ...parameters(schema.querystring, 'query'), ...parameters(schema.headers, 'header')];
    if (params.length) op.parameters = params;
    if (schema.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: toSchema(schema.body, 'input') } } };
    }
    const responses: Record<string, unknown> = {};
    for (const [status, s] of Object.entries(schema.response ?? {})) {
      responses[status] =
        status === '204'
          ? { description: 'No content' }
          : { description: 'Success', content: { 'application/json': { schema: toSchema(s, 'output') } } };
    }
    responses.default = {
      description: `Error envelope; status matches the code (${Object.entries(ERROR_STATUS).map(([c, s]) => `${c} ${s}`).join(', ')})`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
    op.responses = responses;
    if ((r.schema as { security?: unknown } | undefined)?.security !== undefined) op.security = [];
    (paths[openapiPath(r.url)] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'svc API', version: PKG_VERSION, description: baseDescription },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sk_live_… or sk_test_… API key' } },
      schemas: { ErrorEnvelope: toSchema(ErrorEnvelopeSchema, 'output') },
    },
  };
}
