import { createHash } from 'node:crypto';
import type { QueryResult } from 'pg';
import { DatabaseUnavailableError, UniqueConstraintError } from '../storage-errors.js';
import { isConnectionLoss } from './reachability.js';
import { isUniqueViolation } from './unique-violation.js';

/**
 * The database server's wall clock in epoch milliseconds: claims' leases are measured on
 * it, so replicas on machines whose clocks disagree agree on when a lease ran out. clock_timestamp(),
 * not now(): a transaction's start time would make a long write see leases as younger than they are.
 */
export const DB_NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** What a repository runs its SQL on: the pooled client of the transaction (or read) it belongs to. */
export interface Queryable {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<QueryResult>;
}

/** A statement's text, written with positional `?` like the SQLite engine's, sent with `$1…$n`. */
export interface Statement {
  get(...params: unknown[]): Promise<unknown>;
  all(...params: unknown[]): Promise<unknown[]>;
  /** Runs it; `changes` is the rows it touched (pg's rowCount). */
  run(...params: unknown[]): Promise<{ changes: number }>;
  /**
   * Sends it and returns without waiting for its answer (a write whose outcome nothing reads: the
   * idempotency answer a send records last). Its failure fails the transaction: the savepoint's
   * RELEASE or the COMMIT waits for it (`Sql.answered`), and the COMMIT of a transaction it aborted
   * would only have rolled back.
   */
  later(...params: unknown[]): void;
}

/** A statement as PostgreSQL takes it: `$n` parameters, and the names they stand for if it had `@name` ones. */
interface Positional {
  text: string;
  names: string[] | null;
  /**
   * The prepared statement's name, from its text: the driver parses and plans a named statement
   * once per connection and afterwards sends only its parameters (a send is ~10
   * statements, and parsing and planning each again cost the database server as much CPU as running
   * it). The texts are a bounded set (NUMBERED_LIMIT), so are the statements a connection keeps.
   */
  name: string;
}

/**
 * `?` → `$n` (or `@name` → `$n`, the values then taken from one object), once per text. No
 * statement of this engine has a `?` or `@` inside a string literal or uses the jsonb `?` operator.
 */
const numbered = new Map<string, Positional>();
const NUMBERED_LIMIT = 1000;
export function toPositional(text: string): Positional {
  let out = numbered.get(text);
  if (out === undefined) {
    let n = 0;
    const names: string[] = [];
    const named = /@[a-z_]\w*/i.test(text);
    const numberedText: Omit<Positional, 'name'> = named
      ? {
          text: text.replace(/@([a-z_]\w*)/gi, (_, name: string) => {
            const at = names.indexOf(name);
            if (at >= 0) return `$${at + 1}`;
            names.push(name);
            return `$${names.length}`;
          }),
          names,
        }
      : { text: text.replace(/\?/g, () => `$${++n}`), names: null };
    out = { ...numberedText, name: `s${createHash('sha1').update(numberedText.text).digest('hex').slice(0, 20)}` };
    if (numbered.size >= NUMBERED_LIMIT) numbered.clear();
    numbered.set(text, out);
  }
  return out;
}

/**
 * The engine's SQL runner, shaped like the SQLite engine's `db.prepare(sql).get/all/run` so each
 * repository reads the same in both engines (only the dialect differs), but asynchronous.
 */
export class Sql {
  /** Reads served once per transaction (`once`); forgotten at a rollback to a savepoint. */
  private readonly repeated = new Map<string, Promise<unknown>>();

  /**
   * Accounts whose events feed this transaction appended to: the store numbers their new events
   * once it has committed (feed-order.ts). A rollback to a savepoint leaves an account here: the
   * numbering then finds nothing of it to number.
   */
  readonly feedsWritten = new Set<string>();

  /** Statements sent with `later`, not yet waited for. */
  private unanswered: Array<Promise<unknown>> = [];

  constructor(private readonly client: Queryable) {}

  /** Ready for the client's next transaction or read (store.ts binds one Sql to a pooled client). */
  reset(): void {
    this.repeated.clear();
    this.feedsWritten.clear();
    this.unanswered = [];
  }

  /** Waits for the statements sent with `later`; the first that failed fails this (store.ts). */
  async answered(): Promise<void> {
    const sent = this.unanswered;
    this.unanswered = [];
    for (const statement of sent) await statement;
  }

  /**
   * A read a transaction repeats (the account's webhook endpoints, read by the outbox for each event
   * a send emits), run once per transaction: the snapshot does not move under it, so only this
   * transaction's own writes could change the answer, and the repository that writes the rows calls
   * `forget` (a rollback to a savepoint forgets everything: what it undid may have been read).
   */
  async once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let found = this.repeated.get(key) as Promise<T> | undefined;
    if (found === undefined) {
      found = read();
      this.repeated.set(key, found);
      found.catch(() => this.repeated.delete(key));
    }
    return await found;
  }

  /** Forgets the reads served once whose key starts with `prefix`. */
  forget(prefix: string): void {
    for (const key of this.repeated.keys()) if (key.startsWith(prefix)) this.repeated.delete(key);
  }

  prepare(text: string): Statement {
    const { text: positional, names, name } = toPositional(text);
    const run = (params: unknown[]) => {
      const values = names ? names.map((n) => (params[0] as Record<string, unknown>)[n]) : params;
      return this.client.query({ name, text: positional, values: values.map((v) => (v === undefined ? null : v)) }).catch(translate);
    };
    return {
      get: async (...params) => (await run(params)).rows[0],
      all: async (...params) => (await run(params)).rows,
      run: async (...params) => ({ changes: (await run(params)).rowCount ?? 0 }),
      later: (...params) => {
        const sent = run(params);
        sent.catch(() => undefined);
        this.unanswered.push(sent);
      },
    };
  }

  async exec(text: string): Promise<void> {
    if (text.startsWith('ROLLBACK')) this.repeated.clear();
    await this.client.query({ text, values: [] }).catch(translate);
  }

  /**
   * Runs `fn` in a savepoint of its own: a statement that fails (a unique violation the caller
   * catches) then fails alone, as it does in SQLite, instead of aborting the whole transaction.
   */
  async guarded<T>(fn: () => Promise<T>): Promise<T> {
    await this.exec('SAVEPOINT statement_guard');
    try {
      const value = await fn();
      await this.exec('RELEASE SAVEPOINT statement_guard');
      return value;
    } catch (err) {
      await this.exec('ROLLBACK TO SAVEPOINT statement_guard; RELEASE SAVEPOINT statement_guard');
      throw err;
    }
  }
}

/**
 * A unique violation becomes the engines' shared UniqueConstraintError, a lost connection
 * DatabaseUnavailableError: no driver text leaves storage.
 */
function translate(err: unknown): never {
  if (isUniqueViolation(err)) throw new UniqueConstraintError((err as { table?: string }).table ?? 'unknown');
  if (isConnectionLoss(err) && !(err instanceof DatabaseUnavailableError)) throw new DatabaseUnavailableError(err);
  throw err;
}
