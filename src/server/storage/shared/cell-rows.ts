import type { Page } from '../../../api/schemas/page.js';
import type { Dialect, Statements } from './statements.js';
import { compiled, objectLiteral, type Row } from './table.js';
import { keysetResult, keysetSql, type KeysetQuery } from './keyset-page.js';

/** A hot list's columns, in the order `row` reads the JSON cell an engine may read them as (Dialect.cells). */
export interface CellRows<Row> {
  /** Column expressions fixed in code, never user input. */
  columns: readonly string[];
  row: (cells: unknown[]) => Row;
}

/** The rows a statement read with `dialect.cells(c.columns)` as its select list (objects when that was undefined). */
export function readCells<Row>(c: CellRows<Row>, select: string | undefined, read: unknown[]): Row[] {
  return select === undefined ? (read as Row[]) : (read as { cells: string }[]).map((r) => c.row(JSON.parse(r.cells) as unknown[]));
}

/** keysetPage (keyset-page.ts) for the hot lists: rows as JSON cells where the engine reads them faster so. */
export async function keysetCellsPage<Row, Item>(db: Statements, d: Dialect, q: KeysetQuery<Row, Item> & { cells: CellRows<Row> }): Promise<Page<Item>> {
  const select = d.cells(q.cells.columns);
  const { sql, params } = keysetSql(q, select);
  return keysetResult(q, readCells(q.cells, select, await db.prepare(sql).all(...params)));
}

/**
 * CellRows reading `columns` (each prefixed with `alias`, e.g. `m.`, in the select list) back into
 * a row keyed by the bare column names, as `SELECT *` would give it (a table's `read` takes it).
 */
export function cellRows(columns: readonly string[], alias = ''): CellRows<Row> {
  return {
    columns: alias ? columns.map((c) => `${alias}${c}`) : columns,
    row: compiled('cells', objectLiteral(columns.map((c, i) => [c, `cells[${i}]`]))),
  };
}
