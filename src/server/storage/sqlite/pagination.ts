import type { Db } from './database.js';
import type { Page } from '../../../api/schemas/page.js';
import { keysetResult, keysetSql, type KeysetQuery as SharedKeysetQuery } from '../shared/keyset-page.js';

export { decodeCursor, encodeCursor, type KeysetPosition } from '../keyset-cursor.js';

export interface KeysetQuery<Row, Item> extends SharedKeysetQuery<Row, Item> {
  /**
   * Read each row as ONE cell, `json_array(columns…)`, and build it with `row(cells)`, instead of
   * `select`. better-sqlite3 pays per cell (a key and a value per column): a page of 100 messages,
   * 18 columns, took 1.8 ms as objects and 0.6 ms as one JSON array per row parsed in JS
   * (bench/messages-list). For the hot lists only; columns are code, never user input.
   */
  cells?: { columns: readonly string[]; row: (cells: unknown[]) => Row };
}

/**
 * The SQLite engine's own keyset paging (shared/keyset-page.ts, synchronous and with `cells`): kept
 * for the hot lists still written per engine, which answer without a microtask per page.
 */
export function keysetPage<Row, Item>(db: Db, q: KeysetQuery<Row, Item>): Page<Item> {
  const { sql, params } = keysetSql(q, q.cells ? `json_array(${q.cells.columns.join(', ')}) AS cells` : undefined);
  const read = db.prepare(sql).all(...params);
  const rows = q.cells ? (read as { cells: string }[]).map((r) => q.cells!.row(JSON.parse(r.cells) as unknown[])) : (read as Row[]);
  return keysetResult(q, rows);
}
