// Tabular formats (table, tab-separated, csv) need one cell per column, so nested API objects are
// flattened into dotted columns. spec: Output — `route.kind`, never `[object Object]`.

export type FlatValue = string | number | boolean | null;
export type FlatRecord = Record<string, FlatValue>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isScalar(value: unknown): value is string | number | boolean | null | bigint {
  return value === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof value);
}

// bigint has no JSON form; print its digits rather than throwing mid-output.
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
}

function flatValueOf(value: unknown): FlatValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    // Scalars read naturally joined; anything structured keeps its shape as JSON.
    if (value.every(isScalar)) return value.map((item) => (item === null ? '' : String(item))).join(',');
    return toJson(value);
  }
  return toJson(value);
}

function flattenInto(out: FlatRecord, prefix: string, obj: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(obj)) {
    // Absent like in JSON: undefined and functions have no value to show.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isPlainObject(value)) {
      // An empty object still gets its column (empty), so it does not silently vanish from a view.
      if (Object.keys(value).length === 0) out[path] = null;
      else flattenInto(out, path, value);
      continue;
    }
    out[path] = flatValueOf(value);
  }
}

/** `{route: {kind: 'sip'}, tags: ['a','b']}` → `{'route.kind': 'sip', tags: 'a,b'}`. */
export function flattenRecord(obj: object): FlatRecord {
  const out: FlatRecord = {};
  flattenInto(out, '', obj as Record<string, unknown>);
  return out;
}

/** Keys of `rows` under `column.`, in first-seen order. */
function childColumns(rows: readonly FlatRecord[], column: string): string[] {
  const prefix = `${column}.`;
  const children = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) if (key.startsWith(prefix)) children.add(key);
  return [...children];
}

/**
 * Resolves requested column names against flattened rows: a name naming a nested object
 * (`route`) stands for its dotted children (`route.kind`, `route.target`), even where some rows
 * have it null; a name no row has is kept, so positional output (tab-separated) keeps its shape
 * when a field is absent.
 */
export function expandColumns(rows: readonly FlatRecord[], requested: readonly string[]): string[] {
  const result: string[] = [];
  const seen = new Set<string>();
  for (const column of requested) {
    const children = childColumns(rows, column);
    for (const name of children.length > 0 ? children : [column]) {
      if (!seen.has(name)) {
        seen.add(name);
        result.push(name);
      }
    }
  }
  return result;
}

/**
 * Every key of every row in first-seen order, with the preferred ones (expanded) first. A key
 * that is null in one row and an object in another (`route`) appears only as its children.
 */
export function columnsFor(rows: readonly FlatRecord[], preferred: readonly string[] = []): string[] {
  const columns = expandColumns(rows, preferred);
  const seen = new Set(columns);
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return columns.filter((column) => !columns.some((other) => other.startsWith(`${column}.`)));
}
