// The flattened columns a response schema can produce, so a streamed csv can write a complete header
// from the first page (list-encoders.ts): a field that is null or absent on page 1 (an emergency
// address, an optional `street2`) still has its column when a later page fills it.
// Reads zod 4 schema definitions (`_zod.def`) by shape rather than importing zod: this module stays
// free of a runtime dependency, and the schema is loaded only by the command that needs it.

interface SchemaDef {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  options?: unknown[];
  getter?: () => unknown;
}

function defOf(schema: unknown): SchemaDef | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  return (schema as { _zod?: { def?: SchemaDef } })._zod?.def;
}

// Wrappers that do not change the shape of the output.
const WRAPPERS = new Set(['nullable', 'optional', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success']);

/** The object shape a schema outputs (through nullable/optional/… and pipes), or undefined. */
function objectShape(schema: unknown, depth = 0): Record<string, unknown> | undefined {
  const def = defOf(schema);
  if (!def || depth > 20) return undefined;
  if (def.type === 'object') return def.shape;
  if (def.type !== undefined && WRAPPERS.has(def.type)) return objectShape(def.innerType, depth + 1);
  if (def.type === 'pipe') return objectShape(def.out, depth + 1) ?? objectShape(def.in, depth + 1);
  if (def.type === 'lazy' && def.getter) return objectShape(def.getter(), depth + 1);
  return undefined;
}

/**
 * `PhoneNumberSchema` → `['id', …, 'emergency.enabled', 'emergency.address.street', …]`: the keys
 * flattenRecord gives a row of this schema, nested objects as dotted leaves (optional ones
 * included), everything else (arrays, unions, records, scalars) one column. [] for a schema that
 * is not an object.
 */
export function schemaColumns(schema: unknown): string[] {
  const out: string[] = [];
  const walk = (shape: Record<string, unknown>, prefix: string, depth: number): void => {
    for (const [key, child] of Object.entries(shape)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const nested = depth < 10 ? objectShape(child) : undefined;
      // An object without keys flattens to one (empty) column, like flattenRecord's `{}`.
      if (nested && Object.keys(nested).length > 0) walk(nested, path, depth + 1);
      else out.push(path);
    }
  };
  const shape = objectShape(schema);
  if (shape) walk(shape, '', 0);
  return out;
}
