// Response parsers without zod at run time (start-up budget). Loading zod costs about as much
// as starting node, which would put `svc keys list` far over its 2.5x budget. The build renders every
// response schema the CLI parses to JSON Schema (scripts/render-response-schemas.mjs →
// dist/api/response-schemas.json, keyed by export name); here each is compiled once, on first use,
// into a check that parses like zod (json-schema-check.ts). The zod schemas stay the one source
// (conventions 6): they are imported here as types only, which tsc erases.
import { existsSync, readFileSync } from 'node:fs';
import type { output, ZodType } from 'zod';
import type { ResponseParser } from './client/client.js';
import type { Page } from './schemas/page.js';
import { compileJsonSchema, type JsonSchema } from './json-schema-check.js';

type Schemas = typeof import('./schemas/index.js');

/** The export names of the schemas module that are zod schemas named `…Schema`. */
export type ResponseSchemaName = {
  [K in keyof Schemas]: K extends `${string}Schema` ? (Schemas[K] extends ZodType ? K : never) : never;
}[keyof Schemas];

/** What the schema called `K` parses to. */
export type ResponseOf<K extends ResponseSchemaName> = output<Schemas[K]>;

/**
 * Every name a parser was made for. Resource modules make theirs when loaded, so a test can import
 * them all and check each name is in the built JSON (the build renders exactly these names).
 */
export const parserNames = new Set<ResponseSchemaName>();

// dist/api/parsers.js reads its sibling; the sources (vitest) read the built copy: `npm test` builds first.
const SCHEMA_FILES = [new URL('./response-schemas.json', import.meta.url), new URL('../../dist/api/response-schemas.json', import.meta.url)];

let document: Record<string, JsonSchema> | undefined;

/** The JSON Schema rendered for `name` (read once, on first use). */
export function responseJsonSchema(name: ResponseSchemaName): JsonSchema {
  if (!document) {
    const file = SCHEMA_FILES.find((f) => existsSync(f));
    if (!file) throw new Error('response-schemas.json is missing: run `npm run build`');
    document = JSON.parse(readFileSync(file, 'utf8')) as Record<string, JsonSchema>;
  }
  const schema = document[name];
  if (!schema) throw new Error(`response-schemas.json has no ${name}: run \`npm run build\``);
  return schema;
}

const rowParsers = new Map<ResponseSchemaName, ResponseParser<unknown>>();
const pageParsers = new Map<ResponseSchemaName, ResponseParser<unknown>>();

/** A parser compiled on its first parse; nothing is read or compiled when a module only makes one. */
function lazyParser<T>(compile: () => ResponseParser<T>): ResponseParser<T> {
  let compiled: ResponseParser<T> | undefined;
  return { safeParse: (data) => (compiled ??= compile()).safeParse(data) };
}

/** Parses a response with the schema exported as `name` (e.g. `ApiKeySchema`). */
export function responseParser<K extends ResponseSchemaName>(name: K): ResponseParser<ResponseOf<K>> {
  parserNames.add(name);
  let parser = rowParsers.get(name);
  if (!parser) rowParsers.set(name, (parser = lazyParser(() => compileJsonSchema(responseJsonSchema(name)))));
  return parser as ResponseParser<ResponseOf<K>>;
}

/** Parses a page (spec: Global conventions 6, `pageOf` in schemas/page.ts) of rows of `name`. */
export function pageParser<K extends ResponseSchemaName>(name: K): ResponseParser<Page<ResponseOf<K>>> {
  parserNames.add(name);
  let parser = pageParsers.get(name);
  if (!parser) pageParsers.set(name, (parser = lazyParser(() => compileJsonSchema(pageEnvelope(responseJsonSchema(name))))));
  return parser as ResponseParser<Page<ResponseOf<K>>>;
}

/** `pageOf(row)` as JSON Schema: the row's `$defs` move to the root, where its `$ref`s point. */
function pageEnvelope(row: JsonSchema): JsonSchema {
  const { $defs, $schema: _, ...item } = row;
  return {
    ...($defs ? { $defs } : {}),
    type: 'object',
    properties: { data: { type: 'array', items: item }, hasMore: { type: 'boolean' }, nextCursor: { type: ['string', 'null'] } },
    required: ['data', 'hasMore', 'nextCursor'],
    additionalProperties: false,
  };
}
