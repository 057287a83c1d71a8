import type { Command, Option as OptionType } from 'commander';
import { Option } from './commander.js';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';
import type { Query } from '../api/client/client.js';

// Shared pieces of commands: list flags, list/resource printing. One place each.

export interface ListFlags {
  limit?: string;
  all?: boolean;
  cursor?: string;
}

export function addListOptions(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'rows in one page (1-100)')
    .option('--all', 'follow every page, streaming rows as they arrive')
    .option('--cursor <cursor>', 'start from this page cursor (printed on stderr after a page)');
}

export function parseLimit(raw: string | undefined, max = 100): number | undefined {
  if (raw === undefined) return undefined;
  // Plain decimal digits only: Number() would also take `1e1`, `0x10`, ` 5` and `+5`.
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}`, '--limit');
  return n;
}

export interface ListSpec {
  path: string;
  query?: Query;
  columns?: string[];
  /**
   * Every flattened column of a row (schemaColumns of the item schema), loaded only for csv (and
   * tab-separated rows without `columns`): the header is then complete from the first page, so
   * `--all` never meets a field without a column (list-encoders.ts).
   */
  allColumns?: () => Promise<readonly string[]>;
  /** Field printed by `-o ids`; default `id`. */
  idField?: string;
  /** Plural noun for "no keys found". */
  noun: string;
  /** Agency-level route: sent without the sub-account context. */
  agencyLevel?: boolean;
}

/**
 * Lists a resource: one page (with a hint for the next), or with --all every page streamed through
 * the list writer, so memory stays flat however many rows there are.
 */
export async function runList(ctx: CliContext, flags: ListFlags, spec: ListSpec): Promise<void> {
  const limit = parseLimit(flags.limit);
  const client = await ctx.client();
  const { createListWriter } = await import('../output/list-writer.js');
  const { resolveFormat } = await import('../output/formatters.js');
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  const allColumns = spec.allColumns && (format === 'csv' || (format === 'tsv' && !spec.columns)) ? await spec.allColumns() : undefined;
  const writer = createListWriter(ctx.io, { format: ctx.outputFormat, columns: spec.columns, allColumns, idField: spec.idField, now: ctx.now() });
  let hint: string | undefined;
  if (flags.all) {
    for await (const page of client.paginate<Record<string, unknown>>(spec.path, { ...spec.query, limit: limit ?? 100, cursor: flags.cursor }, undefined, { agencyLevel: spec.agencyLevel })) {
      await writer.writeRows(page.data);
    }
  } else {
    const { data: page } = await client.request<{ data: Record<string, unknown>[]; hasMore: boolean; nextCursor: string | null }>({
      method: 'GET',
      path: spec.path,
      query: { ...spec.query, limit, cursor: flags.cursor },
      agencyLevel: spec.agencyLevel,
    });
    await writer.writeRows(page.data);
    if (page.hasMore && page.nextCursor) hint = `more rows: --cursor ${page.nextCursor} (or --all)`;
  }
  await writer.end();
  // After end(): on a terminal the table's bottom border comes first, then the hint.
  if (hint) notice(ctx, hint);
  if (writer.rowCount === 0 && ctx.io.stderrTTY) ctx.io.stderr.write(`no ${spec.noun} found\n`);
}

export async function printOne(ctx: CliContext, resource: object, columns?: string[]): Promise<void> {
  const { printResource } = await import('../output/formatters.js');
  await printResource(ctx.io, resource, { format: ctx.outputFormat, columns, now: ctx.now() });
}

/** A notice for people: stderr, so stdout stays data. */
export function notice(ctx: CliContext, text: string): void {
  ctx.io.stderr.write(`${text}\n`);
}

export const enumOption = (flags: string, description: string, choices: string[]): OptionType => new Option(flags, description).choices(choices);

export const enc = encodeURIComponent;
