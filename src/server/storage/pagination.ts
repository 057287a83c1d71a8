import type { Db } from './database.js';
import type { Page } from '../../api/schemas/page.js';
import { validationError } from '../errors.js';

// contract §2: cursors are opaque and stable under concurrent inserts: a keyset on
// (created_at, seq), newest first, never an offset. `seq` is the insertion order, so rows that share
// a timestamp (a frozen manual clock) still have one total order.

export interface KeysetPosition {
  createdAt: number;
  seq: number;
}

export function encodeCursor(p: KeysetPosition): string {
  return Buffer.from(`${p.createdAt}.${p.seq}`, 'utf8').toString('base64url');
}

/** A malformed cursor is the client's mistake: validation_error on the query's `cursor`. */
export function decodeCursor(cursor: string | undefined): KeysetPosition | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(text);
  if (!m) throw validationError(['query', 'cursor'], 'malformed cursor; pass back a nextCursor unchanged');
  return { createdAt: Number(m[1]), seq: Number(m[2]) };
}

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
  map: (row: Row) => Item;
}

/** One implementation of newest-first keyset paging used by every list. */
export function keysetPage<Row extends { created_at: number; seq: number }, Item>(
  db: Db,
  q: KeysetQuery<Row, Item>,
): Page<Item> {
  const a = q.alias ?? '';
  const where = [...(q.where ?? [])];
  const params = [...(q.params ?? [])];
  const pos = decodeCursor(q.cursor);
  if (pos) {
    where.push(`(${a}created_at < ? OR (${a}created_at = ? AND ${a}seq < ?))`);
    params.push(pos.createdAt, pos.createdAt, pos.seq);
  }
  const sql =
    `SELECT ${a ? `${a}*` : '*'} FROM ${q.from}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${a}created_at DESC, ${a}seq DESC LIMIT ?`;
  const rows = db.prepare(sql).all(...params, q.limit + 1) as Row[];
  const hasMore = rows.length > q.limit;
  const pageRows = hasMore ? rows.slice(0, q.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(q.map),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ createdAt: last.created_at, seq: last.seq }) : null,
  };
}
