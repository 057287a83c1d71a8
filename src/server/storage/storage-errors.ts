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

/**
 * A write that kept losing races with concurrent writes to the same rows (PostgreSQL's serialization
 * failures, every attempt): nothing of it committed. The HTTP layer answers 429 rate_limited with
 * Retry-After, so a client backs off and sends it again (an Idempotency-Key makes that safe).
 */
export class ContentionError extends Error {
  constructor(readonly attempts: number) {
    super(`the write lost ${attempts} races in a row with concurrent writes to the same records; nothing was changed`);
    this.name = 'ContentionError';
  }
}

/**
 * The database holds a schema this build does not know (written by a newer build, by a build older
 * than the oldest it migrates, or not by this service at all): refused before anything is changed.
 * Names both versions.
 */
export class UnsupportedSchemaError extends Error {
  constructor(
    readonly found: string,
    readonly supported: number,
    /** Set when the database is older than this build migrates: the oldest version it does. */
    readonly oldest?: number,
  ) {
    super(
      oldest === undefined
        ? `the database's schema is at version ${found}, and this build of svc knows versions up to ${supported}: refusing to use it (nothing was changed)`
        : `the database's schema is at version ${found}, older than this build of svc migrates (versions ${oldest} to ${supported}): open it once with an svc built before 5 December 2026, which brings it forward, or start on a new database (nothing was changed)`,
    );
    this.name = 'UnsupportedSchemaError';
  }
}

/**
 * The database could not be reached, or the connection to it was lost (a server restarting or
 * stopped, a network cut): nothing of the work is known to have committed unless it answered so. The
 * HTTP layer answers 503 `service_unavailable` with Retry-After; background work retries later. Says
 * nothing of the driver's own words (they name hosts, ports and server internals).
 */
export class DatabaseUnavailableError extends Error {
  /** `cause`: the driver's failure, for the service's own log only. */
  constructor(cause?: unknown) {
    super('the database cannot be reached', cause === undefined ? undefined : { cause });
    this.name = 'DatabaseUnavailableError';
  }
}
