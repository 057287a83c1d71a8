import type { Db } from './database.js';
import type { Page } from '../../../api/schemas/page.js';

export { decodeCursor, encodeCursor, type KeysetPosition } from '../keyset-cursor.js';
import { decodeCursor, encodeCursor, type KeysetPosition } from '../keyset-cursor.js';

export interface KeysetQuery<Row, Item> {
  /** FROM clause: a table name or join fixed in code, never user input. */
  from: string;
  /** Extra conditions, ANDed, with positional `?` parameters in `params`. */
  where?: string[];
  params?: unknown[];
  limit: number;
  cursor?: string;
  /** Column prefix when `from` is a join (e.g. `m.`). */
  alias?: string;
  /** Select list; default every column (of `alias`). */
  select?: string;
  /** The keyset's columns, newest first; default `created_at` and `seq` (of `alias`). */
  order?: { time: string; seq: string };
  /** A row's place in the keyset; default its created_at and seq. */
  position?: (row: Row) => KeysetPosition;
  map: (row: Row) => Item;
  /**
   * Read each row as ONE cell, `json_array(columns…)`, and build it with `row(cells)`, instead of
   * `select`. better-sqlite3 pays per cell (a key and a value per column): a page of 100 messages,
   * 18 columns, took 1.8 ms as objects and 0.6 ms as one JSON array per row parsed in JS
   * (bench/messages-list). For the hot lists only; columns are code, never user input.
   */
  cells?: { columns: readonly string[]; row: (cells: unknown[]) => Row };
}

const defaultPosition = (row: unknown): KeysetPosition => {
  const r = row as { created_at: number; seq: number };
  return { createdAt: r.created_at, seq: r.seq };
};

/** One implementation of newest-first keyset paging used by every list. */
export function keysetPage<Row, Item>(db: Db, q: KeysetQuery<Row, Item>): Page<Item> {
  const a = q.alias ?? '';
  const time = q.order?.time ?? `${a}created_at`;
  const seq = q.order?.seq ?? `${a}seq`;
  const where = [...(q.where ?? [])];
  const params = [...(q.params ?? [])];
  const pos = decodeCursor(q.cursor);
  if (pos) {
    // A row value, not `time < ? OR (time = ? AND seq < ?)`: SQLite cannot seek an index on that OR,
    // so every page scanned the account's index from the newest row down to the cursor (a deep page
    // of 100 at 20k rows took 3.3 ms, bench/messages-list; quadratic over `--all`). `(time, seq) < (?, ?)`
    // is one range on the (account, time, seq) index: each page starts at the cursor.
    where.push(`(${time}, ${seq}) < (?, ?)`);
    params.push(pos.createdAt, pos.seq);
  }
  const select = q.cells ? `json_array(${q.cells.columns.join(', ')}) AS cells` : (q.select ?? (a ? `${a}*` : '*'));
  const sql =
    `SELECT ${select} FROM ${q.from}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${time} DESC, ${seq} DESC LIMIT ?`;
  const read = db.prepare(sql).all(...params, q.limit + 1);
  const rows = q.cells ? (read as { cells: string }[]).map((r) => q.cells!.row(JSON.parse(r.cells) as unknown[])) : (read as Row[]);
  const hasMore = rows.length > q.limit;
  const pageRows = hasMore ? rows.slice(0, q.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(q.map),
    hasMore,
    nextCursor: hasMore && last !== undefined ? encodeCursor((q.position ?? defaultPosition)(last)) : null,
  };
}
