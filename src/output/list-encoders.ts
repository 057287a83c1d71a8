// One incremental encoder per list format: fed page by page, each returns text that can be written
// at once. renderList (one page, then end) and createListWriter (`--all`, many pages) share them,
// so a streamed list is byte for byte the list printed in one go.
import { columnFields, type ColumnDef } from './columns.js';
import { csvLine, tsvLine } from './delimited.js';
import { columnsFor, createRowPlacer, expandColumns, flattenRecord, type FlatRecord, type PlacedRow } from './flatten.js';
import type { OutputFormat } from '../config/output-formats.js';
import type { Display } from './io.js';
import { loadColors } from './load-colors.js';
import { createTableListEncoder } from './table.js';

/** What gets drawn: the user's formats plus `tsv`, the default for lists written into a pipe. */
export type RenderFormat = OutputFormat | 'tsv';

export interface ListEncoder {
  page(rows: readonly object[]): Promise<string>;
  end(): Promise<string>;
}

export interface ListEncoderOptions {
  /**
   * Columns for table and tab-separated rows (exactly these); for csv, these first then the rest.
   * Machine formats read their fields only; a table their headers, places and fits too (columns.ts).
   */
  columns?: readonly ColumnDef[];
  /**
   * Every flattened column a row can have (schemaColumns of the response schema): csv (and
   * tab-separated rows without `columns`) put them all in the header after `columns`, so a
   * streamed list's first page cannot leave out a field a later page fills.
   */
  allColumns?: readonly string[];
  /** Where a streamed csv says a field had no column (stderr); see the comment above csvEncoder. */
  warn?: (message: string) => void;
  /** Field printed by `-o ids`; default `id`. */
  idField?: string;
  /** Reference for relative times on a terminal; default: now. */
  now?: Date;
}

// JSON.stringify(rows, null, 2) written one element at a time: the array never exists in memory.
function jsonEncoder(): ListEncoder {
  let count = 0;
  return {
    async page(rows) {
      let text = '';
      for (const row of rows) {
        text += count++ === 0 ? '[\n' : ',\n';
        text += JSON.stringify(row, null, 2).replace(/^/gm, '  ');
      }
      return text;
    },
    async end() {
      return count === 0 ? '[]\n' : '\n]\n';
    },
  };
}

function ndjsonEncoder(): ListEncoder {
  return {
    async page(rows) {
      return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
    },
    async end() {
      return '';
    },
  };
}

// A YAML sequence is its items one after another, so each row is its own one-item sequence.
function yamlEncoder(): ListEncoder {
  let count = 0;
  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const YAML = await import('yaml');
      count += rows.length;
      return rows.map((row) => YAML.stringify([row], { lineWidth: 0 })).join('');
    },
    async end() {
      return count === 0 ? '[]\n' : '';
    },
  };
}

// Streamed csv and tab-separated rows (`--all`) never drop data a later page has. Their columns are
// fixed by the first page (a csv file has one header; positional tab-separated rows must keep their
// positions), so:
// 1. The header is made complete up front where it can be: `allColumns` (the flattened columns of
//    the command's response schema, schema-columns.ts) are in it whatever page 1 holds, so a field
//    null or absent on page 1 (`emergency.address`, an optional `street2`) has its own columns.
// 2. A later value under a column (`emergency.address.street` while the column is
//    `emergency.address`) is written into that column as compact JSON (createRowPlacer).
// 3. What still has no column (a field neither the schema nor page 1 knew) cannot be added after
//    the header: csv, which promises every field, says so on stderr once per field, naming it and
//    pointing at json/ndjson, rather than dropping it silently. Tab-separated rows and tables with
//    the command's columns show exactly those columns: the other fields are left out by design.

function reporter(format: string, warn: ((message: string) => void) | undefined): (keys: readonly string[]) => void {
  const reported = new Set<string>();
  return (keys) => {
    for (const key of keys) {
      if (reported.has(key)) continue;
      reported.add(key);
      warn?.(`warning: "${key}" first appears after the ${format} columns were fixed and has no column: its values are not in this output (-o ndjson or -o json shows every field)`);
    }
  };
}

/** A row of `null`s naming every known column: lets columnsFor/expandColumns see them first. */
function knownRow(known: readonly string[] | undefined): FlatRecord[] {
  return known && known.length > 0 ? [Object.fromEntries(known.map((column) => [column, null]))] : [];
}

function csvEncoder(preferred: readonly string[] | undefined, known: readonly string[] | undefined, warn?: (message: string) => void): ListEncoder {
  let place: ((original: object, flat: FlatRecord) => PlacedRow) | undefined;
  const report = reporter('csv', warn);
  const header = (flat: readonly FlatRecord[]): string[] => columnsFor([...knownRow(known), ...flat], preferred ?? []);
  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const flat = rows.map(flattenRecord);
      let text = '';
      if (place === undefined) {
        const columns = header(flat);
        place = createRowPlacer(columns);
        text += csvLine(columns);
      }
      for (let i = 0; i < rows.length; i++) {
        const { cells, unplaced } = place(rows[i]!, flat[i]!);
        if (unplaced.length > 0) report(unplaced);
        text += csvLine(cells);
      }
      return text;
    },
    async end() {
      if (place !== undefined) return '';
      // An empty list with known columns is still a valid csv file: just its header.
      const columns = header([]);
      return columns.length > 0 ? csvLine(columns) : '';
    },
  };
}

// spec: piped lists are tab-separated rows, no header, no colour, ISO times, flattened columns.
function tsvEncoder(requested: readonly string[] | undefined, known: readonly string[] | undefined, warn?: (message: string) => void): ListEncoder {
  let place: ((original: object, flat: FlatRecord) => PlacedRow) | undefined;
  const report = reporter('tab-separated', warn);
  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const flat = rows.map(flattenRecord);
      place ??= createRowPlacer(requested ? expandColumns(flat, requested) : columnsFor([...knownRow(known), ...flat]));
      let text = '';
      for (let i = 0; i < rows.length; i++) {
        const { cells, unplaced } = place(rows[i]!, flat[i]!);
        // With the command's columns, the fields outside them are left out on purpose.
        if (!requested && unplaced.length > 0) report(unplaced);
        text += tsvLine(cells);
      }
      return text;
    },
    async end() {
      return '';
    },
  };
}

function idsEncoder(idField: string): ListEncoder {
  return {
    async page(rows) {
      let text = '';
      for (const row of rows) {
        const id = (row as Record<string, unknown>)[idField];
        // A row without an id has nothing to print; a blank line would read as an id to `xargs`.
        if (id !== undefined && id !== null && id !== '') text += `${String(id)}\n`;
      }
      return text;
    },
    async end() {
      return '';
    },
  };
}

export async function createListEncoder(
  format: RenderFormat,
  display: Display,
  opts: ListEncoderOptions = {},
): Promise<ListEncoder> {
  switch (format) {
    case 'json':
      return jsonEncoder();
    case 'ndjson':
      return ndjsonEncoder();
    case 'yaml':
      return yamlEncoder();
    case 'csv':
      return csvEncoder(columnFields(opts.columns), opts.allColumns, opts.warn);
    case 'tsv':
      return tsvEncoder(columnFields(opts.columns), opts.allColumns, opts.warn);
    case 'ids':
      return idsEncoder(opts.idField ?? 'id');
    case 'table': {
      const table = createTableListEncoder(opts.columns, {
        warn: opts.warn,
        tty: display.stdoutTTY,
        colors: await loadColors(display.colorEnabled),
        now: opts.now ?? new Date(),
        width: display.stdoutColumns,
      });
      return { page: (rows) => table.page(rows), end: async () => table.end() };
    }
  }
}
