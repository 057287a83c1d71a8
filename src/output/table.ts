// Bordered tables for people: a list as rows, a single resource as key/value pairs.
// cli-table3 is loaded on first use (≈17 ms to import; `svc --help` must not pay for it).
import type { Colors } from './colors.js';
import { columnsFor, createRowPlacer, expandColumns, flattenRecord, type FlatRecord, type FlatValue, type PlacedRow } from './flatten.js';
import { isIsoTimestamp, relativeTime } from './time.js';

type TableConstructor = typeof import('cli-table3');

export interface TableStyle {
  /** stdout is a terminal: relative times. Off when `-o table` is asked for in a pipe. */
  tty: boolean;
  colors: Colors;
  now: Date;
  /** Terminal width the table should fit in. */
  width: number;
  /** Says (on stderr) that a later page had a field the table has no column for; see list-encoders.ts. */
  warn?: (message: string) => void;
}

async function loadTable(): Promise<TableConstructor> {
  return (await import('cli-table3')).default;
}

// cli-table3 colours headers red and borders grey through its own colour detection; empty
// styles switch that off so every escape code comes from our Colors (spec: NO_COLOR by our code).
// compact: no separator line between rows, only under the header.
const PLAIN_STYLE = { head: [] as string[], border: [] as string[], compact: true };

const PADDING = 2;
// Narrowest a shrunk column gets (content, without padding); headers are truncated too if need be.
const MIN_CONTENT_WIDTH = 6;

function textWidth(text: string): number {
  return [...text].length;
}

function lastSegment(column: string): string {
  const dot = column.lastIndexOf('.');
  return dot === -1 ? column : column.slice(dot + 1);
}

function colourFor(column: string, colors: Colors): ((text: string) => string) | undefined {
  if (column === 'id') return colors.id;
  const name = lastSegment(column);
  if (name === 'status' || name === 'state') return colors.status;
  return undefined;
}

function listCellText(value: FlatValue | undefined, style: TableStyle): string {
  if (value === null || value === undefined) return '';
  if (style.tty && isIsoTimestamp(value)) return relativeTime(value, style.now);
  // One row per record: line breaks and tabs inside a value would tear the row apart.
  return String(value).replace(/[\r\n\t]+/g, ' ');
}

/**
 * How a column may be narrowed on a terminal too small for the table:
 * - `identifier`: ids (`id`, `…Id`, `num_…` values) and E.164 numbers; never shrunk, because
 *   people copy them into the next command and `+1415…` is useless;
 * - `text`: free text (body, label, name, description…; values with spaces); shrunk first;
 * - `other`: short codes, statuses, times, counts; shrunk only when free text alone is not enough.
 */
export type ColumnKind = 'identifier' | 'text' | 'other';

const E164_VALUE = /^\+[1-9]\d{1,14}$/;
// The service's ids: a lowercase prefix, `_`, and a long random part (`num_8Hq2…`, `msg_…`).
const ID_VALUE = /^[a-z][a-z0-9]{1,11}_[A-Za-z0-9]{12,}$/;
const UUID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FREE_TEXT_NAMES = new Set(['body', 'lastBody', 'label', 'name', 'description', 'summary', 'reason', 'message', 'text', 'title', 'campaignName', 'tfvRejectionReason', 'locality', 'url']);

/** The kind of a column, from its name and the raw values of the first page. */
export function columnKind(column: string, values: readonly (FlatValue | undefined)[]): ColumnKind {
  const name = lastSegment(column);
  if (name === 'id' || /[a-z]Id$/.test(name)) return 'identifier';
  const present = values.filter((value): value is FlatValue => value !== null && value !== undefined && value !== '');
  if (present.length > 0 && present.every((value) => typeof value === 'string' && (E164_VALUE.test(value) || ID_VALUE.test(value) || UUID_VALUE.test(value)))) {
    return 'identifier';
  }
  if (FREE_TEXT_NAMES.has(name)) return 'text';
  if (present.length > 0 && present.every((value) => isIsoTimestamp(value))) return 'other';
  return present.some((value) => typeof value === 'string' && /\s/.test(value)) ? 'text' : 'other';
}

/**
 * Column widths (with padding) that fit `available` characters. Free-text columns give up space
 * first, widest first, down to a readable minimum; then the other non-identifier columns; ids and
 * phone numbers never (see ColumnKind). If even that does not fit, the widths are returned anyway
 * (fitColumns then leaves columns out). Without `kinds`, only a column named `id` is kept whole.
 */
export function fitColumnWidths(
  headers: readonly string[],
  cells: readonly string[][],
  available: number,
  kinds: readonly ColumnKind[] = headers.map((header) => (header === 'id' ? 'identifier' : 'other')),
): number[] {
  const widths = headers.map(
    (header, i) => Math.max(textWidth(header), ...cells.map((row) => textWidth(row[i] ?? ''))) + PADDING,
  );
  const minimums = widths.map((width, i) =>
    kinds[i] === 'identifier' ? width : Math.min(width, MIN_CONTENT_WIDTH + PADDING),
  );
  const borders = headers.length + 1;
  let total = widths.reduce((sum, width) => sum + width, 0) + borders;
  for (const phase of ['text', 'other'] as const) {
    while (total > available) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (kinds[i] === phase && widths[i] > minimums[i] && (widest === -1 || widths[i] > widths[widest])) widest = i;
      }
      if (widest === -1) break;
      widths[widest] -= 1;
      total -= 1;
    }
  }
  return widths;
}

/**
 * Which columns fit in `available` characters, and their widths. When shrinking alone is not
 * enough (messages and numbers at 80 columns), columns are left out, the rightmost non-identifier
 * first (a command lists its columns most important first): a table wider than the terminal wraps
 * every row onto two lines and its borders no longer line up, which is unreadable. Identifiers
 * stay. `hidden` names what was left out, for a notice on stderr.
 */
export function fitColumns(
  headers: readonly string[],
  cells: readonly string[][],
  available: number,
  kinds: readonly ColumnKind[],
): { keep: number[]; widths: number[]; hidden: string[] } {
  let keep = headers.map((_, i) => i);
  const hidden: string[] = [];
  for (;;) {
    const widths = fitColumnWidths(
      keep.map((i) => headers[i]!),
      cells.map((row) => keep.map((i) => row[i] ?? '')),
      available,
      keep.map((i) => kinds[i]!),
    );
    const total = widths.reduce((sum, width) => sum + width, 0) + keep.length + 1;
    let drop = -1;
    for (let j = keep.length - 1; j >= 0 && total > available; j--) {
      if (kinds[keep[j]!] !== 'identifier') {
        drop = j;
        break;
      }
    }
    if (drop === -1 || keep.length <= 1) return { keep, widths, hidden: hidden.reverse() };
    hidden.push(headers[keep[drop]!]!);
    keep = keep.filter((_, j) => j !== drop);
  }
}

/**
 * Draws a list as one table across many pages (`--all`): the first page fixes the columns and
 * their widths; later pages continue the same table (longer cells are truncated with "…"; a
 * nested object that was null on the first page shows as JSON in its column).
 * The bottom border is held back until end(), so memory stays bounded by one page.
 */
export interface TableListEncoder {
  page(rows: readonly object[]): Promise<string>;
  end(): string;
}

export function createTableListEncoder(requestedColumns: readonly string[] | undefined, style: TableStyle): TableListEncoder {
  let columns: string[] | undefined;
  let place: ((original: object, flat: FlatRecord) => PlacedRow) | undefined;
  let widths: number[] = [];
  // Indexes (into `columns`) of the columns shown: all of them unless the terminal is too narrow.
  let shown: number[] = [];
  let bottomBorder: string | undefined;
  const reported = new Set<string>();

  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const Table = await loadTable();
      const flat = rows.map(flattenRecord);
      const first = columns === undefined;
      if (columns === undefined) {
        columns = requestedColumns ? expandColumns(flat, requestedColumns) : columnsFor(flat);
        place = createRowPlacer(columns);
      }
      const cols = columns;
      const placed = flat.map((row, i) => place!(rows[i]!, row));
      // With the command's columns, other fields are left out on purpose; without, say what a later
      // page brought that the table has no column for (list-encoders.ts).
      if (!requestedColumns) {
        for (const { unplaced } of placed) {
          for (const key of unplaced) {
            if (reported.has(key)) continue;
            reported.add(key);
            style.warn?.(`warning: "${key}" first appears after the table's columns were fixed and has no column (-o ndjson or -o json shows every field)`);
          }
        }
      }
      const plain = placed.map(({ cells }) => cells.map((value) => listCellText(value, style)));
      if (first) {
        const kinds = cols.map((column, i) => columnKind(column, placed.map(({ cells }) => cells[i])));
        // Only a terminal wraps long lines; `-o table` into a file or pipe keeps every column.
        const fit = style.tty ? fitColumns(cols, plain, style.width, kinds) : { keep: cols.map((_, i) => i), widths: fitColumnWidths(cols, plain, style.width, kinds), hidden: [] };
        shown = fit.keep;
        widths = fit.widths;
        if (fit.hidden.length > 0) {
          style.warn?.(`note: ${fit.hidden.join(', ')} left out to fit ${style.width} columns (a wider terminal, or -o json, shows them)`);
        }
      }

      const table = new Table({
        head: first ? shown.map((i) => style.colors.bold(cols[i]!)) : [],
        colWidths: widths,
        style: PLAIN_STYLE,
        wordWrap: false,
      });
      const colours = shown.map((i) => colourFor(cols[i]!, style.colors));
      for (const cells of plain) {
        table.push(shown.map((i, j) => {
          const text = cells[i] ?? '';
          return text !== '' && colours[j] ? colours[j](text) : text;
        }));
      }

      const lines = table.toString().split('\n');
      bottomBorder = lines.pop();
      // Later pages continue the table started by the first: drop their own top border.
      if (!first) lines.shift();
      return `${lines.join('\n')}\n`;
    },
    end() {
      return bottomBorder === undefined ? '' : `${bottomBorder}\n`;
    },
  };
}

/** Wraps at spaces where it can and hard-breaks long words (URLs, tokens) so nothing is cut off. */
export function wrapText(text: string, width: number): string {
  if (width <= 0) return text;
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let rest = line;
    while (textWidth(rest) > width) {
      const chars = [...rest];
      const head = chars.slice(0, width + 1).join('');
      const space = head.lastIndexOf(' ');
      if (space > 0) {
        out.push(rest.slice(0, space));
        rest = rest.slice(space + 1);
      } else {
        out.push(chars.slice(0, width).join(''));
        rest = chars.slice(width).join('');
      }
    }
    out.push(rest);
  }
  return out.join('\n');
}

function resourceCellText(value: FlatValue | undefined, style: TableStyle): string {
  if (value === null || value === undefined) return '';
  // A single resource has room for both: the exact time and how long ago it was.
  if (style.tty && isIsoTimestamp(value)) return `${value} (${relativeTime(value, style.now)})`;
  return String(value).replace(/\t/g, ' ');
}

/** A single resource as a two-column key/value table of its flattened fields, `preferred` first. */
export async function renderKeyValueTable(
  resource: object,
  preferred: readonly string[] | undefined,
  style: TableStyle,
): Promise<string> {
  const flat: FlatRecord = flattenRecord(resource);
  const keys = columnsFor([flat], preferred ?? []);
  if (keys.length === 0) return '';
  const Table = await loadTable();

  const keyWidth = Math.max(...keys.map(textWidth)) + PADDING;
  // Borders: three vertical bars; values get whatever the terminal has left.
  const valueWidth = Math.max(style.width - keyWidth - 3 - PADDING, MIN_CONTENT_WIDTH * 2);

  const table = new Table({ style: PLAIN_STYLE, wordWrap: false });
  for (const key of keys) {
    const text = wrapText(resourceCellText(flat[key], style), valueWidth);
    const colour = colourFor(key, style.colors);
    table.push([style.colors.bold(key), text !== '' && colour ? colour(text) : text]);
  }
  return `${table.toString()}\n`;
}
