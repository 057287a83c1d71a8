import type { Page } from '../../../api/schemas/page.js';
import { decodeCursor, encodeCursor, type KeysetPosition } from '../keyset-cursor.js';
import type { Statements } from './statements.js';

// contract §2: newest-first keyset paging, (created_at, seq) descending, one cursor format for both
// engines (storage/keyset-cursor.ts). Written once: the SQLite engine's synchronous variant
// (sqlite/pagination.ts, which can also read rows as JSON cells) is built on `keysetSql` and `keysetResult`.

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
}

const defaultPosition = (row: unknown): KeysetPosition => {
  const r = row as { created_at: number; seq: number };
  return { createdAt: r.created_at, seq: r.seq };
};

/** The page's statement (one row more than the page, to tell whether there is more) and its values. */
export function keysetSql<Row, Item>(q: KeysetQuery<Row, Item>, select?: string): { sql: string; params: unknown[] } {
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
    // is one range on the (account, time, seq) index in both engines: each page starts at the cursor.
    where.push(`(${time}, ${seq}) < (?, ?)`);
    params.push(pos.createdAt, pos.seq);
  }
  const sql =
    `SELECT ${select ?? q.select ?? (a ? `${a}*` : '*')} FROM ${q.from}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${time} DESC, ${seq} DESC LIMIT ?`;
  return { sql, params: [...params, q.limit + 1] };
}

/** The page of the rows `keysetSql` read. */
export function keysetResult<Row, Item>(q: KeysetQuery<Row, Item>, rows: Row[]): Page<Item> {
  const hasMore = rows.length > q.limit;
  const pageRows = hasMore ? rows.slice(0, q.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(q.map),
    hasMore,
    nextCursor: hasMore && last !== undefined ? encodeCursor((q.position ?? defaultPosition)(last)) : null,
  };
}

/** One implementation of newest-first keyset paging used by every list. */
export async function keysetPage<Row, Item>(db: Statements, q: KeysetQuery<Row, Item>): Promise<Page<Item>> {
  const { sql, params } = keysetSql(q);
  return keysetResult(q, (await db.prepare(sql).all(...params)) as Row[]);
}
