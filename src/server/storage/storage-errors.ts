// Failures storage reports in its own terms: the domain and the HTTP layer decide what they mean
// to a client, so no SQLite error code and no API error envelope crosses the storage boundary.

/** A list was given a cursor no list produced (the caller's mistake; the HTTP layer answers validation_error). */
export class MalformedCursorError extends Error {
  constructor() {
    super('malformed cursor');
    this.name = 'MalformedCursorError';
  }
}

/** An insert a UNIQUE index refused: a row with the same key exists already. */
export class UniqueConstraintError extends Error {
  constructor(readonly table: string) {
    super(`a ${table} row with the same unique key exists`);
    this.name = 'UniqueConstraintError';
  }
}
