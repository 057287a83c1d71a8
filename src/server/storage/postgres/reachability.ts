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

/** The pause before the first probe after a loss: a single dropped connection closes the breaker again at once. */
const PROBE_FIRST_DELAY_MS = 0;
/** The pause between failed probes grows to this: a lost server is asked about a few times a minute, no more. */
export const PROBE_MAX_DELAY_MS = 2000;

/** Why a request is refused while the breaker is open (the service's log reads it; the client sees only 503). */
const BREAKER_OPEN = 'the database was lost and is not answered yet: refused at once while a probe reconnects';

/**
 * Whether this process can reach its PostgreSQL server, as last seen, and the circuit breaker that
 * follows from it. Lost on a failure that says it cannot (`failed`: only a connection loss, never a
 * statement's own error), back on any answer (`answered`: a statement, the heartbeat, the listening
 * connection opened again, or the probe). The readiness check answers from it (no query per probe),
 * and storage turns the driver's connection failures into DatabaseUnavailableError here, so no pg
 * text reaches the domain.
 *
 * While lost, work that needs the database is refused before it takes a pooled client (`admit`, and
 * `checkout`'s waiters are failed when it is lost): a link that carries nothing makes each new
 * connection hang its whole connect timeout, so letting requests through would queue them behind
 * the pool's hung connects, past a client's patience. One probe at a time (its own connection,
 * bounded) asks whether the server answers, at growing pauses up to PROBE_MAX_DELAY_MS; its first
 * answer lets traffic through again.
 */
export class Reachability {
  private lost = false;
  private probing = false;
  private probeDelay = PROBE_FIRST_DELAY_MS;
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Checkouts under way, each failed at once when the server is found lost. */
  private readonly waiting = new Set<(err: Error) => void>();

  /** `probe`: asks the server once, bounded in time; resolves on an answer. None: no probing (answers from the traffic only). */
  constructor(private readonly probe?: () => Promise<void>) {}

  get reachable(): boolean {
    return !this.lost;
  }

  answered(): void {
    this.lost = false;
    this.probeDelay = PROBE_FIRST_DELAY_MS;
  }

  /** `err` as the engine reports it: a connection loss becomes DatabaseUnavailableError (and is noted). */
  failed(err: unknown): unknown {
    if (!isConnectionLoss(err)) return err;
    const unavailable = err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(err);
    this.lose(unavailable);
    return unavailable;
  }

  /** Throws DatabaseUnavailableError while the server is lost: the work is not started. */
  admit(): void {
    if (this.lost) throw new DatabaseUnavailableError(new Error(BREAKER_OPEN));
  }

  /**
   * `take()` (a pooled client's checkout), admitted, and failed at once if the server is found lost
   * while it waits: pg-pool has no way to withdraw a waiter from its queue, so the client it hands
   * over later is given straight back (`giveBack`).
   */
  checkout<T>(take: () => Promise<T>, giveBack: (taken: T) => void): Promise<T> {
    this.admit();
    return new Promise<T>((resolve, reject) => {
      let refused = false;
      const refuse = (err: Error) => {
        refused = true;
        this.waiting.delete(refuse);
        reject(err);
      };
      this.waiting.add(refuse);
      take().then(
        (taken) => {
          this.waiting.delete(refuse);
          if (refused) giveBack(taken);
          else resolve(taken);
        },
        (err: unknown) => {
          this.waiting.delete(refuse);
          if (!refused) reject(err);
        },
      );
    });
  }

  /** Stops probing (the store is closing). */
  close(): void {
    this.closed = true;
    clearTimeout(this.probeTimer);
  }

  private lose(err: DatabaseUnavailableError): void {
    this.lost = true;
    for (const refuse of [...this.waiting]) refuse(err);
    this.probeSoon();
  }

  /** One probe at a time, after the current pause; again, the pause doubled, until one is answered. */
  private probeSoon(): void {
    if (this.probe === undefined || this.probing || this.closed || !this.lost) return;
    this.probing = true;
    const delay = this.probeDelay;
    this.probeDelay = Math.min(Math.max(this.probeDelay * 2, 250), PROBE_MAX_DELAY_MS);
    this.probeTimer = setTimeout(() => {
      void this.probe!().then(
        () => this.answered(),
        () => undefined,
      ).finally(() => {
        this.probing = false;
        this.probeSoon();
      });
    }, delay);
    this.probeTimer.unref();
  }
}
