import type { BindFlag } from '../rows/stored-flag.js';

// What a repository written once for both engines runs its SQL on, and the little that differs
// between them. SQLite hands better-sqlite3's connection over as it is (its statements answer at
// once: awaiting a value costs a microtask); PostgreSQL its `Sql` runner (postgres/sql.ts), whose
// statements answer with promises. A repository awaits every answer, so it reads the same on both.

/**
 * One statement's text, prepared once: `?` placeholders with positional values, or `@name` ones
 * with one object of values. No `?` or `@` inside a string literal (PostgreSQL's runner numbers them).
 */
export interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[] | Promise<unknown[]>;
  /** `changes` is the rows the statement touched. */
  run(...params: unknown[]): { changes: number } | Promise<{ changes: number }>;
}

/** An engine's statements: each engine keeps its own cache per text, so `prepare` in a method is cheap. */
export interface Statements {
  prepare(sql: string): Statement;
}

/**
 * What the engines' SQL truly differs in, for the repositories written once (shared/*-repo.ts).
 * Each engine has one (sqlite/dialect.ts, postgres/dialect.ts).
 */
export interface Dialect {
  /** A yes/no value as the engine binds it: 0/1 in SQLite (no boolean type), a boolean in PostgreSQL. Read back with rows/stored-flag.ts `flag`. */
  flag: BindFlag;
  /** An aggregate: whether `condition` holds for any row of the group (false for none), read back with `flag`. */
  anyOf(condition: string): string;
  /** A condition: the JSON array of texts in `column` holds the value bound at its `?`. */
  jsonArrayHas(column: string): string;
  /**
   * Before a row takes the next position of an account's feed that readers page "after position N"
   * (the mail sandbox): no position may become visible after a higher one of the same account.
   */
  lockFeed(db: Statements, accountId: string): Promise<void>;

  // The members below serve the send's families (messages, events, idempotency, keys, jobs,
  // accounts, service state).

  /**
   * Appended to a SELECT that reads a row it will write (a claim): a row another transaction holds
   * is skipped, not waited for. Empty on SQLite, where one writer at a time holds every row.
   */
  skipLocked: string;
  /**
   * The clock leases are measured on, as SQL (epoch milliseconds). The statement binds the
   * process's clock as `@now` whatever the engine; PostgreSQL ignores it for its server's clock, so
   * replicas on machines whose clocks disagree agree on when a lease ran out.
   */
  leaseClock: string;
  /**
   * An INSERT of one row, then a statement over `inserted` (that row's `returning` columns), prepared
   * once. PostgreSQL sends both as one statement, the insert a data-modifying CTE (one round trip,
   * not two); SQLite has no INSERT inside WITH, so it runs them in turn, the second reading the row
   * back by its rowid on the same connection (no round trip to save).
   */
  insertThen(db: Statements, q: { table: string; insert: string; returning: string; then: string }): { run(...params: unknown[]): Promise<void> };
  /**
   * Runs a write whose answer nothing reads and that is its transaction's last (the answer a send
   * records under its idempotency key). PostgreSQL sends it without waiting (one wait less per
   * send; the COMMIT waits for it and fails if it did); SQLite runs it, answering at once anyway.
   */
  runLast(stmt: Statement, params: unknown[]): void;
  /**
   * The select list that reads each row as one JSON cell, `cells` (the hot lists). better-sqlite3
   * pays per cell: a page of 100 messages, 18 columns, took 1.8 ms as objects and 0.6 ms as one
   * JSON array per row parsed in JS (bench/messages-list). Undefined on PostgreSQL, whose driver
   * reads a row at once: rows are read as objects there.
   */
  cells(columns: readonly string[]): string | undefined;
  /** A condition: `column` is one of the texts bound at its `?` as `bind(values)` (no IN list per count). */
  oneOf: { condition(column: string): string; bind(values: readonly string[]): unknown };
}
