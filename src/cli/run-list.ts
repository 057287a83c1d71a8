import { describeSubaccount, type CliContext } from './context.js';
import { notice, parseLimit, type ListFlags } from './command-kit.js';
import { listPage, listPages, pagesAhead, type ListEndpoint } from '../api/resources/list.js';
import type { Query } from '../api/client/client.js';
import { resolveFormat } from '../output/formatters.js';
import { createListWriter, type ListWriter } from '../output/list-writer.js';
import { schemaColumns } from '../output/schema-columns.js';
import type { ColumnDef } from '../output/columns.js';
import { responseJsonSchema } from '../api/parsers.js';
import { holdYoungGeneration } from './stream-memory.js';

export interface ListSpec<T, Q extends Query> {
  endpoint: ListEndpoint<T, Q>;
  query?: Q;
  columns?: readonly ColumnDef[];
  /**
   * csv (and tab-separated rows without `columns`) get every flattened column of the row schema in
   * the header from the first page, so `--all` never meets a field without a column (list-encoders.ts).
   */
  completeColumns?: boolean;
  /** Field printed by `-o ids`; default `id`. */
  idField?: string;
  /** Plural noun for "no keys found". */
  noun: string;
}

/**
 * Lists a resource: one page (with a hint for the next), or with --all every page streamed through
 * the list writer, so memory stays flat however many rows there are; the next page is fetched while
 * the current one prints (pagesAhead), and a slow stdout paces the paging (the writer awaits drain).
 */
export async function runList<T, Q extends Query>(ctx: CliContext, flags: ListFlags, spec: ListSpec<T, Q>): Promise<void> {
  const limit = parseLimit(flags.limit);
  const client = await ctx.client();
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  const allColumns = spec.completeColumns && (format === 'csv' || (format === 'tsv' && !spec.columns)) ? schemaColumns(responseJsonSchema(spec.endpoint.row)) : undefined;
  // Made at the first page: by then the service has said its time (Service-Time), and relative
  // times are measured against the clock the rows were stamped with.
  let writer: ListWriter | undefined;
  const writerNow = (): ListWriter => (writer ??= createListWriter(ctx.io, { format: ctx.outputFormat, columns: spec.columns, allColumns, idField: spec.idField, now: ctx.serviceNow() }));
  const query = { ...spec.query } as Q;
  let hint: string | undefined;
  if (flags.all) {
    holdYoungGeneration();
    for await (const page of pagesAhead(listPages(client, spec.endpoint, { ...query, limit: limit ?? 100, cursor: flags.cursor }))) {
      await writerNow().writeRows(page.data as Record<string, unknown>[]);
    }
  } else {
    const page = await listPage(client, spec.endpoint, { ...query, limit, cursor: flags.cursor });
    await writerNow().writeRows(page.data as Record<string, unknown>[]);
    // A hint is for a person reading a table, who did not say how many rows they want: not for a
    // pipe, nor after `--limit 1`.
    const forPerson = ctx.io.stdoutTTY && ctx.io.stderrTTY && flags.limit === undefined;
    if (forPerson && page.hasMore && page.nextCursor) hint = `more rows: --cursor ${page.nextCursor} (or --all)`;
  }
  const done = writerNow();
  await done.end();
  // After end(): on a terminal the table's bottom border comes first, then the hint.
  if (hint) notice(ctx, hint);
  if (done.rowCount === 0 && ctx.io.stderrTTY) {
    const acting = await ctx.actingAs();
    ctx.io.stderr.write(`no ${spec.noun} found${acting ? ` for ${describeSubaccount(acting)}` : ''}\n`);
  }
}
