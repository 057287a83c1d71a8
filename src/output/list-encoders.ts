// One incremental encoder per list format: fed page by page, each returns text that can be written
// at once. renderList (one page, then end) and createListWriter (`--all`, many pages) share them,
// so a streamed list is byte for byte the list printed in one go.
import { csvLine, csvRow, tsvRow } from './delimited.js';
import { columnsFor, expandColumns, flattenRecord } from './flatten.js';
import type { RenderFormat } from './formatters.js';
import type { Display } from './io.js';
import { loadColors } from './load-colors.js';
import { createTableListEncoder } from './table.js';

export interface ListEncoder {
  page(rows: readonly object[]): Promise<string>;
  end(): Promise<string>;
}

export interface ListEncoderOptions {
  /** Columns for table and tab-separated rows (exactly these); for csv, these first then the rest. */
  columns?: readonly string[];
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

// The first page fixes the header; later pages are written under it (fields they alone have are
// dropped: a csv file has one header).
function csvEncoder(preferred: readonly string[] | undefined): ListEncoder {
  let columns: string[] | undefined;
  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const flat = rows.map(flattenRecord);
      let text = '';
      if (columns === undefined) {
        columns = columnsFor(flat, preferred ?? []);
        text += csvLine(columns);
      }
      const cols = columns;
      return text + flat.map((row) => csvRow(row, cols)).join('');
    },
    async end() {
      // An empty list with known columns is still a valid csv file: just its header.
      return columns === undefined && preferred && preferred.length > 0 ? csvLine(preferred) : '';
    },
  };
}

// spec: piped lists are tab-separated rows, no header, no colour, ISO times, flattened columns.
function tsvEncoder(requested: readonly string[] | undefined): ListEncoder {
  let columns: string[] | undefined;
  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const flat = rows.map(flattenRecord);
      columns ??= requested ? expandColumns(flat, requested) : columnsFor(flat);
      const cols = columns;
      return flat.map((row) => tsvRow(row, cols)).join('');
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
      return csvEncoder(opts.columns);
    case 'tsv':
      return tsvEncoder(opts.columns);
    case 'ids':
      return idsEncoder(opts.idField ?? 'id');
    case 'table': {
      const table = createTableListEncoder(opts.columns, {
        tty: display.stdoutTTY,
        colors: await loadColors(display.colorEnabled),
        now: opts.now ?? new Date(),
        width: display.columns,
      });
      return { page: (rows) => table.page(rows), end: async () => table.end() };
    }
  }
}
