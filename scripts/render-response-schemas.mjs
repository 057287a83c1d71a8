#!/usr/bin/env node
// Build step: renders every response schema the CLI parses to JSON Schema in
// dist/api/response-schemas.json, keyed by its export name (`ApiKeySchema`). The CLI compiles these
// (dist/api/parsers.js) instead of loading zod, which costs about as much as starting node (start-up
// budget). The names are those the resource modules register when loaded, so the file holds
// exactly what the CLI parses; a test checks every registered name is in it.
import { readdirSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const dist = new URL('../dist/api/', import.meta.url);
for (const file of readdirSync(new URL('resources/', dist)).filter((f) => f.endsWith('.js'))) {
  await import(new URL(`resources/${file}`, dist).href);
}
const { parserNames } = await import(new URL('parsers.js', dist).href);
const schemas = await import(new URL('schemas/index.js', dist).href);

const out = {};
for (const name of [...parserNames].sort()) {
  const schema = schemas[name];
  if (!(schema instanceof z.ZodType)) throw new Error(`${name} is not a zod schema exported by api/schemas`);
  out[name] = z.toJSONSchema(schema, { io: 'output' });
}
writeFileSync(new URL('response-schemas.json', dist), `${JSON.stringify(out)}\n`);
