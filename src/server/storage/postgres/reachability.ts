import { DatabaseUnavailableError } from '../storage-errors.js';

/** Socket-level failures to reach the server, or of a connection to it. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs the server answers when it cannot serve this session: class 08 (connection exception),
 * 57P01 admin_shutdown (a fast stop ends every session with it), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, or recovering after a crash), 53300 too_many_connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * The driver's own failures, which carry no code: a connection that ended under a query ("Connection
 * terminated unexpectedly"), a client already broken ("…is not queryable"), a connect that took
 * longer than its `connectionTimeoutMillis` ("timeout expired"; pg-pool's own: "Connection terminated
 * due to connection timeout", "timeout exceeded when trying to connect"), a statement unanswered for
 * its `query_timeout` ("Query read timeout": the link carries nothing, database.ts PG_QUERY_TIMEOUT_MS).
 */
const DRIVER_MESSAGES = /^Connection terminated|is not queryable|^timeout expired$|timeout exceeded when trying to connect|^Query read timeout$/;

/** Whether `err` says the database server cannot be reached, or the connection to it was lost. */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true;
  // A failure to connect to several addresses (localhost: ::1 and 127.0.0.1) is an AggregateError of socket errors.
  if (err instanceof AggregateError) return err.errors.length > 0 && err.errors.every(isConnectionLoss);
  return DRIVER_MESSAGES.test(err.message);
}

/**
 * Whether this process can reach its PostgreSQL server, as last seen: lost on a failure that says it
 * cannot (`failed`), back on any answer (`answered`: a statement, the heartbeat, the listening
 * connection opened again). The readiness check answers from it (no query per probe), and storage
 * turns the driver's connection failures into DatabaseUnavailableError here, so no pg text reaches
 * the domain.
 */
export class Reachability {
  private lost = false;

  get reachable(): boolean {
    return !this.lost;
  }

  answered(): void {
    this.lost = false;
  }

  /** `err` as the engine reports it: a connection loss becomes DatabaseUnavailableError (and is noted). */
  failed(err: unknown): unknown {
    if (!isConnectionLoss(err)) return err;
    this.lost = true;
    return err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(err);
  }
}
