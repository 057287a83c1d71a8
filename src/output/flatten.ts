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

/** The value at a dotted path of the original (unflattened) row; keys may themselves hold dots. */
function valueAtPath(obj: unknown, path: string): unknown {
  if (!isPlainObject(obj)) return undefined;
  if (Object.hasOwn(obj, path)) return obj[path];
  for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) {
    const head = path.slice(0, dot);
    if (Object.hasOwn(obj, head)) {
      const value = valueAtPath(obj[head], path.slice(dot + 1));
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

export interface PlacedRow {
  /** One value per column. */
  cells: (FlatValue | undefined)[];
  /** Non-empty keys of the row that no column holds (see createRowPlacer). */
  unplaced: string[];
}

/**
 * Puts rows into columns fixed earlier (by the first page of a streamed list), losing nothing a
 * column can hold:
 * - a key that is a column goes there;
 * - a key under a column (`emergency.address.street` where the column is `emergency.address`,
 *   because the address was null on the first page) makes that column the sub-object as compact
 *   JSON, taken from the original row;
 * - a null under which there are columns (`emergency.address: null` where the columns are
 *   `emergency.address.street`, …) is those columns left empty, and any other null without a
 *   column loses nothing;
 * - any other value is `unplaced`: the caller decides whether that is a deliberate choice of columns
 *   (table and tab-separated rows with the command's columns) or data that must not vanish
 *   silently (csv, which promises every field).
 */
export function createRowPlacer(columns: readonly string[]): (original: object, flat: FlatRecord) => PlacedRow {
  const columnSet = new Set(columns);
  const ownerOf = (key: string): string | undefined => {
    for (let dot = key.lastIndexOf('.'); dot > 0; dot = key.lastIndexOf('.', dot - 1)) {
      const prefix = key.slice(0, dot);
      if (columnSet.has(prefix)) return prefix;
    }
    return undefined;
  };
  return (original, flat) => {
    let folded: Map<string, FlatRecord> | undefined;
    const unplaced: string[] = [];
    for (const [key, value] of Object.entries(flat)) {
      if (columnSet.has(key)) continue;
      const owner = ownerOf(key);
      if (owner !== undefined) {
        folded ??= new Map();
        let parts = folded.get(owner);
        if (!parts) folded.set(owner, (parts = {}));
        parts[key.slice(owner.length + 1)] = value;
        continue;
      }
      // A null has nothing to lose: its column (or the columns under it) would be empty anyway.
      if (value === null) continue;
      unplaced.push(key);
    }
    const cells = columns.map((column) => {
      const parts = folded?.get(column);
      if (parts === undefined) return flat[column];
      const nested = valueAtPath(original, column);
      // The flattened parts stand in only when the path cannot be followed in the original.
      return toJson(isPlainObject(nested) ? nested : parts);
    });
    return { cells, unplaced };
  };
}
