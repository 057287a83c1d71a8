// Tables for people, compact and borderless like `gh`: a header row, then one line per record,
// columns two spaces apart, no box-drawing characters and no rules. A single resource is `key  value`
// lines. Drawn by this file alone (no table library), so every escape code comes from our Colors
// and NO_COLOR is honoured by our code (spec: Output).
import type { Colors } from './colors.js';
import { columnField, columnSpec, peopleHeader, type ColumnDef, type ColumnFit, type ColumnSpec } from './columns.js';
import { columnsFor, createRowPlacer, expandColumns, flattenRecord, type FlatRecord, type FlatValue, type PlacedRow } from './flatten.js';
import { isIsoTimestamp, relativeTimeOf } from './time.js';

export interface TableStyle {
  /** stdout is a terminal: relative times. Off when `-o table` is asked for in a pipe. */
  tty: boolean;
  colors: Colors;
  now: Date;
  /**
   * Width the table must fit (IO.stdoutColumns): the terminal's, or `COLUMNS`. Undefined into a
   * pipe without `COLUMNS`: a pipe has no width, so nothing is cut or left out.
   */
  width: number | undefined;
  /** Says (on stderr) that a later page had a field the table has no column for; see list-encoders.ts. */
  warn?: (message: string) => void;
}

/** Between two columns, as `gh` does. */
const GAP = '  ';
/** What the column the user came for (a message's body) keeps before other columns are left out. */
const TEXT_MIN = 12;
/** Narrowest that text gets once nothing else can give way. */
const TEXT_FLOOR = 4;
/** Narrowest that a long code or JSON cell in an `other` column is cut to. */
const OTHER_MIN = 8;
/** Narrowest a wrapped value of the key/value view gets, however narrow the terminal. */
const VALUE_MIN = 20;
/** Narrowest a `wrap` column of a list gets (a DNS value wraps over lines rather than lose a character). */
const WRAP_MIN = 16;

function textWidth(text: string): number {
  return [...text].length;
}

/** `text` cut to `width` characters, the last one an ellipsis when anything was cut. */
function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 1 ? '…'.slice(0, width) : `${chars.slice(0, width - 1).join('')}…`;
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

function listCellText(column: string, value: FlatValue | undefined, style: TableStyle): string {
  if (value === null || value === undefined) return '';
  if (style.tty && isIsoTimestamp(value)) return relativeTimeOf(column, value, style.now);
  // One row per record: line breaks and tabs inside a value would tear the row apart.
  return String(value).replace(/[\r\n\t]+/g, ' ');
}

/**
 * What a column holds, decided from its name and the raw values of the first page:
 * - `identifier`: ids (`id`, `…Id`, `num_…` values), UUIDs and E.164 numbers: people copy them into
 *   the next command, and `+1415…` is useless;
 * - `status`: `status`, `state`, `direction`, `type` and other short enums and booleans: one word
 *   that says what happened;
 * - `text`: free text (body, label, name, description, url…; values with spaces);
 * - `time`: timestamps (`3m ago` on a terminal);
 * - `other`: counts, codes, anything else;
 * - `empty`: no value at all on the first page (a `disabledReason` while every endpoint is enabled).
 * How each kind gives way on a narrow terminal is in GIVE_WAY.
 */
export type ColumnKind = 'identifier' | 'status' | 'text' | 'time' | 'other' | 'empty';

const E164_VALUE = /^\+[1-9]\d{1,14}$/;
// The service's ids: a lowercase prefix, `_`, and a long random part (`num_8Hq2…`, `msg_…`).
const ID_VALUE = /^[a-z][a-z0-9]{1,11}_[A-Za-z0-9]{12,}$/;
const UUID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUS_NAMES = new Set(['status', 'state', 'direction', 'type', 'kind', 'mode', 'channel', 'enabled', 'eventType']);
const FREE_TEXT_NAMES = new Set(['body', 'lastBody', 'label', 'name', 'description', 'summary', 'reason', 'message', 'text', 'title', 'campaignName', 'tfvRejectionReason', 'locality', 'url', 'error', 'disabledReason']);

/** The kind of a column, from its name and the raw values of the first page. */
export function columnKind(column: string, values: readonly (FlatValue | undefined)[]): ColumnKind {
  const name = lastSegment(column);
  const present = values.filter((value): value is FlatValue => value !== null && value !== undefined && value !== '');
  if (present.length === 0 && values.length > 0) return 'empty';
  if (name === 'id' || /[a-z]Id$/.test(name)) return 'identifier';
  if (present.length > 0 && present.every((value) => typeof value === 'string' && (E164_VALUE.test(value) || ID_VALUE.test(value) || UUID_VALUE.test(value)))) {
    return 'identifier';
  }
  if (STATUS_NAMES.has(name)) return 'status';
  if (present.length > 0 && present.every((value) => typeof value === 'boolean')) return 'status';
  if (FREE_TEXT_NAMES.has(name)) return 'text';
  if (present.length > 0 && present.every((value) => isIsoTimestamp(value))) return 'time';
  return present.some((value) => typeof value === 'string' && /\s/.test(value)) ? 'text' : 'other';
}

/**
 * How a column gives way when the table is wider than the terminal: the one place this is decided.
 * `drop`: columns are left out lowest first (the rightmost first among equals, since a command lists
 * its columns most important first); `never` columns are always shown. A list may place a column
 * elsewhere on this scale (columns.ts `ColumnSpec.keep`: a call's start time before its direction).
 * `truncate`: may be cut with `…`; the others are always shown whole.
 *
 * - `key`, the record's own id (the column `id`, else the first identifier), and `status` words are
 *   what a row is about: never left out, never cut (`delivered`, not `deliver…`).
 * - `text`, the first free-text column, is what people came for (a message's body, a number's
 *   label): it is cut last, and other columns are left out before it gets narrower than TEXT_MIN.
 * - Before it go, in order: `empty` columns (nothing to see), `other` (counts like `segments`,
 *   codes), `moreText` (further free text), `time` (short anyway when relative), then `identifier`
 *   (the other ids and phone numbers).
 */
export type ColumnRole = 'key' | 'status' | 'text' | 'moreText' | 'time' | 'identifier' | 'other' | 'empty';

const never = Number.POSITIVE_INFINITY;
export const GIVE_WAY: Record<ColumnRole, { drop: number; truncate: boolean }> = {
  empty: { drop: 0, truncate: true },
  other: { drop: 10, truncate: true },
  moreText: { drop: 20, truncate: true },
  time: { drop: 30, truncate: false },
  identifier: { drop: 40, truncate: false },
  text: { drop: 50, truncate: true },
  status: { drop: never, truncate: false },
  key: { drop: never, truncate: false },
};

/**
 * Each column's role, from the kinds of all of them (see ColumnRole). The free text people came for
 * is the first text column, unless the list ranks another higher (`ranks`, columns.ts `keep`: an
 * email's sender is text too, but its subject is what the list is read for).
 */
export function columnRoles(headers: readonly string[], kinds: readonly ColumnKind[], ranks: readonly (number | undefined)[] = []): ColumnRole[] {
  const idColumn = headers.indexOf('id');
  const key = idColumn !== -1 && kinds[idColumn] === 'identifier' ? idColumn : kinds.indexOf('identifier');
  const textRank = (i: number): number => ranks[i] ?? GIVE_WAY.text.drop;
  let mainText = -1;
  kinds.forEach((kind, i) => {
    if (kind === 'text' && (mainText === -1 || textRank(i) > textRank(mainText))) mainText = i;
  });
  return kinds.map((kind, i) => {
    if (i === key) return 'key';
    if (kind === 'text') return i === mainText ? 'text' : 'moreText';
    return kind;
  });
}

function totalWidth(widths: readonly number[]): number {
  return widths.reduce((sum, width) => sum + width, 0) + GAP.length * Math.max(widths.length - 1, 0);
}

/** How a column of this role fits when the list does not say (GIVE_WAY.truncate). */
const defaultFit = (role: ColumnRole): ColumnFit => (GIVE_WAY[role].truncate ? 'cut' : 'whole');

/**
 * Column widths (content only; the gap is added between columns) that fit `available` characters
 * if cutting or wrapping can do it: first `other`, further free-text and `wrap` columns, widest
 * first, down to OTHER_MIN / TEXT_MIN / WRAP_MIN; then the first free-text column down to
 * `textMin`. A header is never cut, nor a `whole` column. Returns the widths even when they do not fit.
 */
export function fitColumnWidths(
  headers: readonly string[],
  cells: readonly string[][],
  available: number,
  roles: readonly ColumnRole[],
  textMin = TEXT_MIN,
  fits: readonly ColumnFit[] = roles.map(defaultFit),
): number[] {
  const widths = headers.map((header, i) => Math.max(textWidth(header), ...cells.map((row) => textWidth(row[i] ?? ''))));
  const minimums = widths.map((width, i) => {
    const role = roles[i]!;
    if (fits[i] === 'whole') return width;
    const floor = fits[i] === 'wrap' ? WRAP_MIN : role === 'text' ? textMin : role === 'moreText' ? Math.min(textMin, TEXT_MIN) : OTHER_MIN;
    return Math.min(width, Math.max(textWidth(headers[i]!), floor));
  });
  // Phase 1 gives way before the text people came for; phase 2 is that text.
  const phaseOf = (i: number): number => (roles[i] === 'text' && fits[i] === 'cut' ? 2 : fits[i] === 'wrap' || ['empty', 'other', 'moreText'].includes(roles[i]!) ? 1 : 0);
  let total = totalWidth(widths);
  for (const phase of [1, 2]) {
    while (total > available) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (phaseOf(i) === phase && widths[i]! > minimums[i]! && (widest === -1 || widths[i]! > widths[widest]!)) widest = i;
      }
      if (widest === -1) break;
      widths[widest]! -= 1;
      total -= 1;
    }
  }
  return widths;
}

/** What a list says of its columns beyond their names (columns.ts); each defaults per column. */
export interface FitHints {
  /** The headers people read (widths and the left-out note); default the names. */
  labels?: readonly string[];
  /** Per column: its place on the GIVE_WAY.drop scale, or undefined for its role's. */
  ranks?: readonly (number | undefined)[];
  /** Per column: how it gives way, or undefined for its role's. */
  fits?: readonly (ColumnFit | undefined)[];
}

/**
 * Which columns fit in `available` characters, and their widths. A column empty on the first page
 * is left out before anything is cut. Then cutting comes first (see
 * fitColumnWidths); when that is not enough, columns are left out in GIVE_WAY order until the first
 * free-text column has TEXT_MIN characters; if it still cannot, it is cut to what fits (down to
 * TEXT_FLOOR) and only then left out. A table wider than the terminal would wrap every row onto two
 * lines, which is unreadable. `hidden` names what was left out (in column order), for a notice on
 * stderr. `available` undefined (a pipe): everything, nothing cut.
 */
export function fitColumns(
  headers: readonly string[],
  cells: readonly string[][],
  available: number | undefined,
  kinds: readonly ColumnKind[],
  hints: FitHints = {},
): { keep: number[]; widths: number[]; hidden: string[] } {
  const roles = columnRoles(headers, kinds, hints.ranks);
  const labels = hints.labels ?? headers;
  // The record's own id stays whatever a list says; other columns take the list's place if it gives one.
  const ranks = roles.map((role, i) => (role === 'key' ? never : hints.ranks?.[i] ?? GIVE_WAY[role].drop));
  const fits = roles.map((role, i) => hints.fits?.[i] ?? defaultFit(role));
  const firstText = roles.indexOf('text');
  // Columns that go before the free text gets narrower than TEXT_MIN.
  const textRank = firstText === -1 ? GIVE_WAY.text.drop : ranks[firstText]!;
  let keep = headers.map((_, i) => i);
  const widthsOf = (textMin: number): number[] =>
    fitColumnWidths(
      keep.map((i) => labels[i]!),
      cells.map((row) => keep.map((i) => row[i] ?? '')),
      available ?? never,
      keep.map((i) => roles[i]!),
      textMin,
      keep.map((i) => fits[i]!),
    );
  const result = (widths: number[]) => ({
    keep,
    widths,
    hidden: labels.filter((_, i) => !keep.includes(i)),
  });
  if (available === undefined) return result(widthsOf(TEXT_MIN));
  // The column to leave out next: lowest rank below `below`, the rightmost among equals.
  const nextToDrop = (below: number): number => {
    let pick = -1;
    for (let j = 0; j < keep.length; j++) {
      const rank = ranks[keep[j]!]!;
      if (rank < below && (pick === -1 || rank <= ranks[keep[pick]!]!)) pick = j;
    }
    return pick;
  };
  for (;;) {
    const widths = widthsOf(TEXT_MIN);
    // A column with nothing in it is not worth cutting anything else for: it goes first.
    const cutSomething = widths.some((width, j) => cells.some((row) => textWidth(row[keep[j]!] ?? '') > width));
    const emptyColumn = keep.findIndex((i) => roles[i] === 'empty');
    const empty = cutSomething || totalWidth(widths) > available ? emptyColumn : -1;
    if (empty !== -1) {
      keep = keep.filter((_, j) => j !== empty);
      continue;
    }
    if (totalWidth(widths) <= available) return result(widths);
    let drop = nextToDrop(textRank);
    if (drop === -1) {
      const tight = widthsOf(TEXT_FLOOR);
      if (totalWidth(tight) <= available) return result(tight);
      drop = nextToDrop(never);
      // Only what is never left out remains: the line is wider than the terminal, but whole.
      if (drop === -1) return result(tight);
    }
    keep = keep.filter((_, j) => j !== drop);
  }
}

/**
 * One row of the table: cells cut or wrapped (where the column allows) and padded to their widths,
 * then coloured. A wrapped cell makes the row several lines, the other cells on its first.
 */
function tableLine(
  cells: readonly string[],
  widths: readonly number[],
  fits: readonly ColumnFit[],
  colours: readonly (((text: string) => string) | undefined)[],
): string {
  const parts = cells.map((cell, j) =>
    fits[j] === 'cut' ? [truncate(cell, widths[j]!)] : fits[j] === 'wrap' ? breakEvery(cell, widths[j]!) : [cell],
  );
  const height = Math.max(1, ...parts.map((p) => p.length));
  const last = cells.length - 1;
  const lines: string[] = [];
  for (let k = 0; k < height; k++) {
    const line = parts
      .map((p, j) => {
        const text = p[k] ?? '';
        const colour = colours[j];
        const coloured = text !== '' && colour ? colour(text) : text;
        // No trailing spaces after the last column (they end up in files and in copied text).
        return j === last ? coloured : coloured + ' '.repeat(Math.max(widths[j]! - textWidth(text), 0));
      })
      .join(GAP)
      .trimEnd();
    lines.push(line);
  }
  return lines.join('\n');
}

/**
 * A value to copy broken every `width` characters, spaces kept where they are: a break at a space
 * would hide that space (`v=spf1 include:…` must keep it), and the lines read back joined.
 */
function breakEvery(text: string, width: number): string[] {
  const chars = [...text];
  if (chars.length <= width || width <= 0) return [text];
  const lines: string[] = [];
  for (let at = 0; at < chars.length; at += width) lines.push(chars.slice(at, at + width).join(''));
  return lines;
}

/**
 * The stderr note naming the columns left out, kept inside `width`: as many names as fit, then how
 * many more (a note that wraps on its own terminal reads as noise).
 */
export function leftOutNote(hidden: readonly string[], width: number): string {
  const say = (names: readonly string[], more: number, why: string): string =>
    `note: ${names.join(', ')}${more ? ` and ${more} more` : ''} left out to fit ${width} columns${why}`;
  // Every name first; the pointer to -o json only where there is room for it.
  for (let shown = hidden.length; shown > 0; shown--) {
    for (const why of [' (-o json shows all)', '']) {
      const note = say(hidden.slice(0, shown), hidden.length - shown, why);
      if (textWidth(note) <= width) return note;
    }
  }
  return truncate(`note: ${hidden.length} column${hidden.length === 1 ? '' : 's'} left out`, width);
}

/**
 * The columns of a table: each flattened column with the spec of the list's column it comes from
 * (a nested field's children share their parent's), and the header people read.
 */
function tableColumns(columns: readonly string[], requested: readonly ColumnDef[] | undefined): { specs: ColumnSpec[]; labels: string[] } {
  const given = (requested ?? []).map(columnSpec);
  const specs = columns.map((column) => given.find((g) => g.field === column) ?? given.find((g) => column.startsWith(`${g.field}.`)) ?? { field: column });
  const labels = columns.map((column, i) => (specs[i]!.field === column && specs[i]!.header) || peopleHeader(column));
  // Two columns that would read the same (`from.name`, `to.name`) keep their whole path.
  return {
    specs,
    labels: labels.map((label, i) => (labels.indexOf(label) === labels.lastIndexOf(label) ? label : peopleHeader(columns[i]!.replace(/\.(.)/g, (_m, c: string) => c.toUpperCase())))),
  };
}

/**
 * Draws a list as one table across many pages (`--all`): the first page fixes the columns and
 * their widths and prints the header; later pages continue the same table (on a terminal, longer
 * cells of columns that may be cut are cut with "…", of `wrap` columns wrapped; ids and statuses
 * are never cut and may push the rest of their row right; a nested object that was null on the
 * first page shows as JSON in its column). Memory stays bounded by one page.
 */
export interface TableListEncoder {
  page(rows: readonly object[]): Promise<string>;
  end(): string;
}

export function createTableListEncoder(requestedColumns: readonly ColumnDef[] | undefined, style: TableStyle): TableListEncoder {
  const requestedFields = requestedColumns?.map(columnField);
  let columns: string[] | undefined;
  let place: ((original: object, flat: FlatRecord) => PlacedRow) | undefined;
  let widths: number[] = [];
  // Indexes (into `columns`) of the columns shown: all of them unless the terminal is too narrow.
  let shown: number[] = [];
  // Per shown column: how its cells fit the width (only when a width is known: else whole).
  let fits: ColumnFit[] = [];
  const reported = new Set<string>();

  return {
    async page(rows) {
      if (rows.length === 0) return '';
      const flat = rows.map(flattenRecord);
      const first = columns === undefined;
      if (columns === undefined) {
        columns = requestedFields ? expandColumns(flat, requestedFields) : columnsFor(flat);
        place = createRowPlacer(columns);
      }
      const cols = columns;
      const placed = flat.map((row, i) => place!(rows[i]!, row));
      // With the command's columns, other fields are left out on purpose; without, say what a later
      // page brought that the table has no column for (list-encoders.ts).
      if (!requestedFields) {
        for (const { unplaced } of placed) {
          for (const key of unplaced) {
            if (reported.has(key)) continue;
            reported.add(key);
            style.warn?.(`warning: "${key}" first appears after the table's columns were fixed and has no column (-o ndjson or -o json shows every field)`);
          }
        }
      }
      const plain = placed.map(({ cells }) => cells.map((value, i) => listCellText(cols[i]!, value, style)));
      let text = '';
      if (first) {
        const kinds = cols.map((column, i) => columnKind(column, placed.map(({ cells }) => cells[i])));
        const { specs, labels } = tableColumns(cols, requestedColumns);
        const roles = columnRoles(cols, kinds, specs.map((s) => s.keep));
        const fit = fitColumns(cols, plain, style.width, kinds, { labels, ranks: specs.map((s) => s.keep), fits: specs.map((s) => s.fit) });
        shown = fit.keep;
        widths = fit.widths;
        fits = shown.map((i) => (style.width === undefined ? 'whole' : specs[i]!.fit ?? defaultFit(roles[i]!)));
        if (fit.hidden.length > 0) style.warn?.(leftOutNote(fit.hidden, style.width!));
        text += `${tableLine(shown.map((i) => labels[i]!), widths, shown.map(() => 'whole'), shown.map(() => style.colors.bold))}\n`;
      }
      const colours = shown.map((i) => colourFor(cols[i]!, style.colors));
      for (const cells of plain) {
        text += `${tableLine(shown.map((i) => cells[i] ?? ''), widths, fits, colours)}\n`;
      }
      return text;
    },
    end() {
      return '';
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

function resourceCellText(key: string, value: FlatValue | undefined, style: TableStyle): string {
  if (value === null || value === undefined) return '';
  // A single resource has room for both: the exact time and how long ago it was.
  if (style.tty && isIsoTimestamp(value)) return `${value} (${relativeTimeOf(key, value, style.now)})`;
  return String(value).replace(/\t/g, ' ');
}

/**
 * A single resource as `key  value` lines of its flattened fields, `preferred` first. Long values
 * wrap under their own column (never cut); without a width (a pipe) they are not wrapped.
 */
export async function renderKeyValueTable(
  resource: object,
  preferred: readonly string[] | undefined,
  style: TableStyle,
): Promise<string> {
  const flat: FlatRecord = flattenRecord(resource);
  const keys = columnsFor([flat], preferred ?? []);
  if (keys.length === 0) return '';

  const keyWidth = Math.max(...keys.map(textWidth));
  const indent = ' '.repeat(keyWidth + GAP.length);
  const valueWidth = style.width === undefined ? 0 : Math.max(style.width - indent.length, VALUE_MIN);

  let out = '';
  for (const key of keys) {
    const text = resourceCellText(key, flat[key], style);
    const colour = colourFor(key, style.colors);
    const lines = (valueWidth > 0 ? wrapText(text, valueWidth) : text).split(/\r?\n/);
    const label = style.colors.bold(key) + ' '.repeat(keyWidth - textWidth(key));
    lines.forEach((line, i) => {
      const value = line !== '' && colour ? colour(line) : line;
      out += `${`${i === 0 ? label : indent.slice(GAP.length)}${GAP}${value}`.trimEnd()}\n`;
    });
  }
  return out;
}
