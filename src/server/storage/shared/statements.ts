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
}
