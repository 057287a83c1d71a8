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

/**
 * `(args) => expression`, compiled once. A row's record and an INSERT's values are built per row and
 * per send: a loop storing or reading each field by a name it looks up took twice as long per row as
 * the object literal written out (V8's generic path for every load and store; 1.2 µs against 0.55 µs
 * for a message read from its JSON cells), and 7x as long for the values. The expressions come from
 * the table lists in code, never from input; `names` are the values they refer to.
 */
export function compiled<F>(args: string, expression: string, names: Record<string, unknown> = {}): F {
  return new Function(...Object.keys(names), `return (${args}) => ${expression};`)(...Object.values(names)) as F;
}

/** `({ "key": expression, … })` */
export const objectLiteral = (entries: ReadonlyArray<readonly [key: string, expression: string]>): string =>
  `({ ${entries.map(([k, e]) => `${JSON.stringify(k)}: ${e}`).join(', ')} })`;

const snakeCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Use `table(...)`. Every field of the record is listed, so a field added to the record and not to its table fails to compile. */
export class Table<R extends object> {
  readonly fields: ReadonlyArray<keyof R & string>;
  /** The columns, in the order of `fields`. */
  readonly columns: readonly string[];
  private readonly hows: readonly Keeping[];
  private readonly index = new Map<string, number>();
  private readonly all: (record: Partial<R>, d: Dialect) => unknown[];

  constructor(
    readonly name: string,
    spec: { readonly [K in keyof R]-?: FieldSpec },
  ) {
    const entries = Object.entries(spec) as Array<[keyof R & string, FieldSpec]>;
    this.fields = entries.map(([f]) => f);
    this.columns = entries.map(([f, s]) => ('name' in s ? s.name : snakeCase(f)));
    this.hows = entries.map(([, s]) => ('how' in s ? s.how : s));
    this.fields.forEach((f, i) => this.index.set(f, i));
    // Written out once: `{ "from": row["from_number"], "media": hows[11].read(row["media"]), … }` and
    // `[(r["from"] ?? null), hows[11].write((r["media"] ?? null), d), …]`; an asIs field calls nothing.
    const keeps = (i: number, v: string, how: 'read' | 'write', d = '') => (this.hows[i] === asIs ? v : `hows[${i}].${how}(${v}${d})`);
    this.read = compiled('row', objectLiteral(this.fields.map((f, i) => [f, keeps(i, `row[${JSON.stringify(this.columns[i])}]`, 'read')])), { hows: this.hows });
    this.all = compiled('r, d', `[${this.fields.map((f, i) => keeps(i, `(r[${JSON.stringify(f)}] ?? null)`, 'write', ', d')).join(', ')}]`, { hows: this.hows });
  }

  /** The column that keeps `field`. */
  column(field: keyof R & string): string {
    return this.columns[this.at(field)]!;
  }

  /** The record of a row read with `SELECT *` (or any select naming every column). */
  readonly read: (row: Row) => R;

  /** `INSERT INTO name (columns) VALUES (?, …)` for `fields` (every field unless told). */
  insertSql(fields: ReadonlyArray<keyof R & string> = this.fields): string {
    return `INSERT INTO ${this.name} (${fields.map((f) => this.column(f)).join(', ')}) VALUES (${fields.map(() => '?').join(', ')})`;
  }

  /** `a = ?, b = ?` for an UPDATE's SET of `fields`. */
  setSql(fields: ReadonlyArray<keyof R & string>): string {
    return fields.map((f) => `${this.column(f)} = ?`).join(', ');
  }

  /** The values of `fields` of a record (every field unless told), as the engine binds them, in order. */
  values(record: Partial<R>, d: Dialect, fields?: ReadonlyArray<keyof R & string>): unknown[] {
    if (fields === undefined) return this.all(record, d);
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
