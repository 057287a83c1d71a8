
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
  /** A yes/no value as the engine binds it: 0/1 in SQLite (no boolean type), a boolean in PostgreSQL. Read back through table.ts `yesNo`. */
  flag: (v: boolean) => number | boolean;
  /** An aggregate: whether `condition` holds for any row of the group (false for none), read back with `flag`. */
  anyOf(condition: string): string;
  /** A condition: the JSON array of texts in `column` holds the value bound at its `?`. */
  jsonArrayHas(column: string): string;
  /**
   * Before a row takes the next position of an account's feed that readers page "after position N"
   * (the mail sandbox): no position may become visible after a higher one of the same account.
   */
  lockFeed(db: Statements, accountId: string): Promise<void>;

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
  /**
   * The database's wall clock in epoch milliseconds, as SQL: claims' leases are measured on it.
   * PostgreSQL's is the server's, so replicas on machines whose clocks disagree agree on when a lease
   * ran out; SQLite's is this machine's (one file, processes on one machine).
   */
  wallMs: string;
  /**
   * A condition: `column` is one of the texts bound at its `?` with `list(values)`. SQLite binds no
   * arrays, so it reads the list as one JSON text (json_each); PostgreSQL binds a text[].
   */
  inList(column: string): string;
  list(values: readonly string[]): unknown;
  /**
   * Ends the SELECT that picks rows to claim: PostgreSQL's `FOR UPDATE SKIP LOCKED`, so a row another
   * replica's open claim holds is left to it rather than waited for; empty in SQLite, whose one
   * writer at a time leaves nothing to skip.
   */
  skipLocked: string;
  /**
   * A FROM item, aliased `u`, reading the JSON array of objects bound at its `?` as rows of `fields`
   * (name and SQL type), so a batch of updates is one statement: PostgreSQL's jsonb_to_recordset,
   * each statement being a round trip. Null in SQLite: a batch is one prepared statement run per
   * row, with no round trip to save (parsing the batch's JSON cost more: 10.6 against 6.5 µs a
   * recorded delivery).
   */
  recordset: ((fields: ReadonlyArray<readonly [name: string, type: string]>) => string) | null;
  /**
   * Runs a write that may break a unique key, so a caller can catch UniqueConstraintError and go on.
   * PostgreSQL aborts the whole transaction on a failed statement, so it runs in a savepoint of its
   * own there; in SQLite the statement fails alone and only its error is translated.
   */
  guarded<T>(db: Statements, write: () => Promise<T>): Promise<T>;
  /**
   * Reads a repository holds on to (`name` keeps its keys apart), forgotten at once by its own writes
   * (`changed`). SQLite holds them between transactions: one connection, its transactions end before
   * the next read, and the store forgets them when another process wrote the file. PostgreSQL holds
   * them for one transaction only (sql.ts `once`): other replicas write the same database, and within
   * a transaction its snapshot does not move, while each read is a round trip saved.
   * A held value is shared: callers build fresh records from it, or it is frozen.
   */
  heldReads(db: Statements, name: string): HeldReads;
}

/** What `Dialect.heldReads` gives a repository. */
export interface HeldReads {
  /** The value held under `key`, else `read()`'s (held unless undefined). */
  get<T>(key: string, read: () => Promise<T>): Promise<T>;
  /** The repository wrote its table: forget everything held. */
  changed(): void;
}
