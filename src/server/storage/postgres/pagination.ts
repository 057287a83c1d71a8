import type { Sql } from './sql.js';
import type { Page } from '../../../api/schemas/page.js';
import { decodeCursor, encodeCursor, type KeysetPosition } from '../keyset-cursor.js';

// contract §2: the same newest-first keyset as the SQLite engine's (storage/keyset-cursor.ts):
// (created_at, seq) descending, one cursor format for both engines.

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

/** One implementation of newest-first keyset paging used by every list. */
export async function keysetPage<Row, Item>(db: Sql, q: KeysetQuery<Row, Item>): Promise<Page<Item>> {
  const a = q.alias ?? '';
  const time = q.order?.time ?? `${a}created_at`;
  const seq = q.order?.seq ?? `${a}seq`;
  const where = [...(q.where ?? [])];
  const params = [...(q.params ?? [])];
  const pos = decodeCursor(q.cursor);
  if (pos) {
    // A row comparison: one range on the (account, time, seq) index, as in the SQLite engine.
    where.push(`(${time}, ${seq}) < (?, ?)`);
    params.push(pos.createdAt, pos.seq);
  }
  const select = q.select ?? (a ? `${a}*` : '*');
  const sql =
    `SELECT ${select} FROM ${q.from}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${time} DESC, ${seq} DESC LIMIT ?`;
  const rows = (await db.prepare(sql).all(...params, q.limit + 1)) as Row[];
  const hasMore = rows.length > q.limit;
  const pageRows = hasMore ? rows.slice(0, q.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(q.map),
    hasMore,
    nextCursor: hasMore && last !== undefined ? encodeCursor((q.position ?? defaultPosition)(last)) : null,
  };
}
