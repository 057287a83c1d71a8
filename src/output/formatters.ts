// Turns API data into text in the format the user asked for, or the default for where stdout goes.
// spec: Global flags (`-o, --output`), Output. Renderers are async because the libraries behind
// table and yaml are imported on first use, keeping `svc --help` fast.
import type { Display, IO } from './io.js';
import { writeAndDrain } from './io.js';
import { createListEncoder, type ListEncoderOptions, type RenderFormat } from './list-encoders.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../config/output-formats.js';
import { loadColors } from './load-colors.js';
import { renderKeyValueTable } from './table.js';
import { columnFields } from './columns.js';

export { OUTPUT_FORMATS, type OutputFormat, type RenderFormat };

/** A page of records, or one record (a `get`, a `create`). */
export type OutputKind = 'list' | 'resource';

/** Throws a plain Error naming the allowed values; the CLI reports it as a usage error (exit 2). */
export function parseOutputFormat(value: string): OutputFormat {
  const normalized = value.trim().toLowerCase();
  const found = OUTPUT_FORMATS.find((format) => format === normalized);
  if (found === undefined) {
    throw new Error(`unknown output format "${value}": use one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  return found;
}

export interface ResolveFormatInput {
  /** From `-o`, `--json` or SVC_OUTPUT; undefined when none was given. */
  requested?: OutputFormat;
  stdoutTTY: boolean;
  /** Default `list`. */
  kind?: OutputKind;
}

export interface ResolvedFormat {
  format: RenderFormat;
  kind: OutputKind;
}

/**
 * The one place the output format is decided. An explicit request always wins; otherwise a
 * terminal gets a table, and a pipe gets tab-separated rows for a list and JSON for a single
 * resource (spec: Global flags, "When stdout is not a TTY and no format was asked for").
 */
export function resolveFormat(input: ResolveFormatInput): ResolvedFormat {
  const kind = input.kind ?? 'list';
  if (input.requested !== undefined) return { format: input.requested, kind };
  if (input.stdoutTTY) return { format: 'table', kind };
  return { format: kind === 'list' ? 'tsv' : 'json', kind };
}

export interface RenderOptions extends ListEncoderOptions {
  format: RenderFormat;
}

/** A list in one go. Same bytes as streaming it through createListWriter. */
export async function renderList(display: Display, rows: readonly object[], opts: RenderOptions): Promise<string> {
  const encoder = await createListEncoder(opts.format, display, opts);
  return (await encoder.page(rows)) + (await encoder.end());
}

/**
 * One resource. Table: key/value pairs of its flattened fields (`columns` first). JSON/YAML: the
 * whole object. csv, tsv, ndjson, ids: the same as a one-row list.
 */
export async function renderResource(display: Display, resource: object, opts: RenderOptions): Promise<string> {
  switch (opts.format) {
    case 'json':
      return `${JSON.stringify(resource, null, 2)}\n`;
    case 'yaml': {
      const YAML = await import('yaml');
      return YAML.stringify(resource, { lineWidth: 0 });
    }
    case 'table':
      return renderKeyValueTable(resource, columnFields(opts.columns), {
        tty: display.stdoutTTY,
        colors: await loadColors(display.colorEnabled),
        now: opts.now ?? new Date(),
        width: display.stdoutColumns,
      });
    case 'ndjson':
    case 'csv':
    case 'tsv':
    case 'ids':
      return renderList(display, [resource], opts);
  }
}

export interface PrintOptions extends ListEncoderOptions {
  /** The user's request (`-o`); undefined lets resolveFormat pick the default. */
  format?: OutputFormat;
}

/** Renders a list in the requested (or default) format and writes it to stdout. */
export async function printList(io: IO, rows: readonly object[], opts: PrintOptions = {}): Promise<void> {
  const { format } = resolveFormat({ requested: opts.format, stdoutTTY: io.stdoutTTY, kind: 'list' });
  // Notices (a column left out to fit the terminal) go to stderr, as createListWriter does.
  const warn = opts.warn ?? ((message: string) => void io.stderr.write(`${message}\n`));
  await writeAndDrain(io.stdout, await renderList(io, rows, { ...opts, warn, format }));
}

/** Renders one resource in the requested (or default) format and writes it to stdout. */
export async function printResource(io: IO, resource: object, opts: PrintOptions = {}): Promise<void> {
  const { format } = resolveFormat({ requested: opts.format, stdoutTTY: io.stdoutTTY, kind: 'resource' });
  await writeAndDrain(io.stdout, await renderResource(io, resource, { ...opts, format }));
}
