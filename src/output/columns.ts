// The one shape of a list's columns: the API field a column shows, the header people
// read on a terminal, how long it stays on a narrow terminal and how its cells give way. Machine
// formats (csv, tab-separated rows, json) use the field names only; the rest is for tables.

/**
 * How a column's cells fit a narrow terminal: `cut` ends a long cell with `…` (free text),
 * `wrap` breaks it over lines under its own column and never loses a character (a DNS value a user
 * copies, a list of addresses), `whole` is never cut nor wrapped (an id, a status word, a number).
 */
export type ColumnFit = 'cut' | 'wrap' | 'whole';

export interface ColumnSpec {
  /** The flattened API field (`createdAt`, `emergency.address`): csv headers and row positions. */
  field: string;
  /** The header on a terminal table; default `peopleHeader(field)`. */
  header?: string;
  /**
   * How long the column stays when the table is too wide, on table.ts's GIVE_WAY scale (0: first to
   * go … 50: the body text; the row's id and status words always stay). Default: from what the
   * column holds (table.ts `columnKind`).
   */
  keep?: number;
  /** Default: from what the column holds (free text is cut, ids and statuses are whole). */
  fit?: ColumnFit;
}

/** A column as a list gives it: a bare field name takes every default. */
export type ColumnDef = string | ColumnSpec;

export const columnField = (column: ColumnDef): string => (typeof column === 'string' ? column : column.field);

export const columnFields = (columns: readonly ColumnDef[] | undefined): string[] | undefined => columns?.map(columnField);

/** The spec of a column: the list's own, or the defaults for a bare field. */
export const columnSpec = (column: ColumnDef): ColumnSpec => (typeof column === 'string' ? { field: column } : column);

/**
 * The header people read for a field: its last segment in lower-case words, a time without its `At`
 * (`createdAt` → `created`, `lastUsedAt` → `last used`, `capabilities.sms` → `sms`). Lower case
 * keeps the compact look of the rows; `-o csv` and `-o json` keep the API's names.
 */
export function peopleHeader(field: string): string {
  const last = field.slice(field.lastIndexOf('.') + 1);
  const name = /^[a-z].*[a-z0-9]At$/.test(last) ? last.slice(0, -2) : last;
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}
