// The flattened columns a response schema can produce, so a streamed csv can write a complete header
// from the first page (list-encoders.ts): a field that is null or absent on page 1 (an emergency
// address, an optional `street2`) still has its column when a later page fills it.
// Reads the JSON Schema the build renders from the zod schema (api/parsers.ts, `responseJsonSchema`),
// not the zod schema itself: a list never loads zod (start-up budget).

type JsonSchema = { [keyword: string]: unknown };

/**
 * The object properties a schema outputs, through `$ref`s and `.nullable()` (`anyOf` with `null`),
 * or undefined. Other unions are not objects: one column.
 */
function objectProperties(schema: unknown, defs: Record<string, JsonSchema>, depth = 0): Record<string, unknown> | undefined {
  if (typeof schema !== 'object' || schema === null || depth > 20) return undefined;
  const s = schema as JsonSchema;
  if (typeof s.$ref === 'string') {
    const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
    return name === undefined ? undefined : objectProperties(defs[name], defs, depth + 1);
  }
  if (Array.isArray(s.anyOf)) {
    const options = s.anyOf.filter((o: JsonSchema) => !(o && o.type === 'null'));
    return options.length === 1 ? objectProperties(options[0], defs, depth + 1) : undefined;
  }
  const type = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null') : [s.type];
  if (type.length === 1 && type[0] === 'object') return (s.properties ?? {}) as Record<string, unknown>;
  return undefined;
}

/**
 * `PhoneNumberSchema` → `['id', …, 'emergency.enabled', 'emergency.address.street', …]`: the keys
 * flattenRecord gives a row of this schema, nested objects as dotted leaves (optional ones
 * included), everything else (arrays, unions, records, scalars) one column. [] for a schema that
 * is not an object.
 */
export function schemaColumns(schema: JsonSchema): string[] {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const out: string[] = [];
  const walk = (properties: Record<string, unknown>, prefix: string, depth: number): void => {
    for (const [key, child] of Object.entries(properties)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const nested = depth < 10 ? objectProperties(child, defs) : undefined;
      // An object without keys flattens to one (empty) column, like flattenRecord's `{}`.
      if (nested && Object.keys(nested).length > 0) walk(nested, path, depth + 1);
      else out.push(path);
    }
  };
  const properties = objectProperties(schema, defs);
  if (properties) walk(properties, '', 0);
  return out;
}
