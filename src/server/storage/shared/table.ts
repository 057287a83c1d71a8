import type { Dialect } from './statements.js';

// A family's table as its repository reads and writes it, written once for both engines: each field
// of the record beside how its column keeps it (as it is, JSON text, a yes/no). From that one list
// come a row's record, an INSERT's or UPDATE's SQL and the values it binds, in the same order.

/** A row as a driver hands it over: its columns by name. */
export type Row = Record<string, unknown>;

/** How a field's value is kept in its column. */
export interface Keeping {
  read(cell: unknown): unknown;
  write(value: unknown, d: Dialect): unknown;
}

/** Kept as it is: text, numbers, null. */
export const asIs: Keeping = { read: (c) => c, write: (v) => v };

/** JSON text (objects, arrays); null stays null. */
export const json: Keeping = {
  read: (c) => (c === null || c === undefined ? null : JSON.parse(c as string)),
  write: (v) => (v === null || v === undefined ? null : JSON.stringify(v)),
};

/**
 * A yes/no. SQLite has no boolean type: it keeps 0 or 1 (and better-sqlite3 binds no booleans);
 * PostgreSQL's boolean comes back as true or false. Written through the engine's Dialect `flag`.
 */
export const yesNo: Keeping = { read: (c) => c === true || c === 1, write: (v, d) => d.flag(v as boolean) };

/** A field kept in a column not named after it in snake_case (`from` in `from_number`). */
export const column = (name: string, how: Keeping = asIs): { name: string; how: Keeping } => ({ name, how });

type FieldSpec = Keeping | { name: string; how: Keeping };

const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Use `table(...)`. Every field of the record is listed, so a field added to the record and not to its table fails to compile. */
export class Table<R extends object> {
  readonly fields: ReadonlyArray<keyof R & string>;
  /** The columns, in the order of `fields`. */
  readonly columns: readonly string[];
  private readonly hows: readonly Keeping[];
  private readonly index = new Map<string, number>();

  constructor(
    readonly name: string,
    spec: { readonly [K in keyof R]-?: FieldSpec },
  ) {
    const entries = Object.entries(spec) as Array<[keyof R & string, FieldSpec]>;
    this.fields = entries.map(([f]) => f);
    this.columns = entries.map(([f, s]) => ('name' in s ? s.name : snakeCase(f)));
    this.hows = entries.map(([, s]) => ('how' in s ? s.how : s));
    this.fields.forEach((f, i) => this.index.set(f, i));
  }

  /** The column that keeps `field`. */
  column(field: keyof R & string): string {
    return this.columns[this.at(field)]!;
  }

  /** The record of a row read with `SELECT *` (or any select naming every column). */
  readonly read = (row: Row): R => {
    const r: Record<string, unknown> = {};
    for (let i = 0; i < this.fields.length; i++) {
      const how = this.hows[i]!;
      const cell = row[this.columns[i]!];
      r[this.fields[i]!] = how === asIs ? cell : how.read(cell);
    }
    return r as R;
  };

  /** `INSERT INTO name (columns) VALUES (?, …)` for `fields` (every field unless told). */
  insertSql(fields: ReadonlyArray<keyof R & string> = this.fields): string {
    return `INSERT INTO ${this.name} (${fields.map((f) => this.column(f)).join(', ')}) VALUES (${fields.map(() => '?').join(', ')})`;
  }

  /** `a = ?, b = ?` for an UPDATE's SET of `fields`. */
  setSql(fields: ReadonlyArray<keyof R & string>): string {
    return fields.map((f) => `${this.column(f)} = ?`).join(', ');
  }

  /** The values of `fields` of a record (every field unless told), as the engine binds them, in order. */
  values(record: Partial<R>, d: Dialect, fields: ReadonlyArray<keyof R & string> = this.fields): unknown[] {
    return fields.map((f) => {
      const how = this.hows[this.at(f)]!;
      const v = record[f] ?? null;
      return how === asIs ? v : how.write(v, d);
    });
  }

  private at(field: string): number {
    const i = this.index.get(field);
    if (i === undefined) throw new Error(`${this.name} keeps no field ${field}`);
    return i;
  }
}

/** The table `name` keeping records `R`: each field beside how it is kept (its column is its snake_case name unless `column` says). */
export const table = <R extends object>(name: string, spec: { readonly [K in keyof R]-?: FieldSpec }): Table<R> => new Table<R>(name, spec);
