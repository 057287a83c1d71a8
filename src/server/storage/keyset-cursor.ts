import { MalformedCursorError } from './storage-errors.js';

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

/** A malformed cursor is the client's mistake: MalformedCursorError (the HTTP layer answers validation_error on `cursor`). */
export function decodeCursor(cursor: string | undefined): KeysetPosition | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(text);
  if (!m) throw new MalformedCursorError();
  return { createdAt: Number(m[1]), seq: Number(m[2]) };
}
