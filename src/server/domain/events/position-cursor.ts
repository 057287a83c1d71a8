import { validationError } from '../../errors.js';
import type { ErrorDetail } from '../../../api/schemas/errors.js';

// An opaque cursor for a position in an append-only sequence (the events feed, a sink's requests):
// the position behind a prefix naming the sequence and its version, base64url-encoded, so clients
// pass it back unchanged and never build one.

export interface PositionCursor {
  encode(seq: number): string;
  /** The position, or a validation error on `path` saying how to get a good cursor (`hint`). */
  decode(cursor: string, path: ErrorDetail['path'], hint?: string): number;
}

export function positionCursor(prefix: string): PositionCursor {
  const pattern = new RegExp(`^${prefix.replace('.', '\\.')}(\\d{1,15})$`);
  return {
    encode: (seq) => Buffer.from(`${prefix}${seq}`, 'utf8').toString('base64url'),
    decode(cursor, path, hint = 'pass back a cursor from a previous response unchanged') {
      const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
      const m = pattern.exec(text);
      if (!m) throw validationError(path, `malformed cursor; ${hint}`);
      return Number(m[1]);
    },
  };
}
