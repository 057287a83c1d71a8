// A snapshot is a SQLite file anyone can hand you, and SQLite files carry code: a trigger
// runs on the writes a load makes and on every later write of the service, a view can stand where a
// table should be, a table without its CHECK takes values the domain relies on never seeing. So a
// file is loaded only when its schema is exactly the one our migrations build: the same tables,
// columns, indexes and constraints, and nothing else (no trigger, no view, no extra index).
import Database from 'better-sqlite3';
import { migrate } from './database.js';

interface SchemaObject {
  type: string;
  name: string;
  tableName: string;
  /** The CREATE statement, normalized (normalizeSql); null for SQLite's automatic indexes. */
  sql: string | null;
}

/**
 * A CREATE statement as SQLite keeps it, without its comments and with runs of whitespace made one
 * space (none beside punctuation), so a migration whose comments or layout were edited after a
 * database was built from it still compares equal. Quoted text ('literal', "name", `name`, [name])
 * is kept as written: a CHECK list's values are compared exactly.
 */
export function normalizeSql(sql: string): string {
  let out = '';
  let space = false;
  const emitSpace = () => {
    if (space && out !== '' && !/[(,]$/.test(out)) out += ' ';
    space = false;
  };
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      space = true;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      space = true;
    } else if (/\s/.test(c)) {
      space = true;
      i++;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const at = sql.indexOf(close, j);
        if (at === -1) {
          j = sql.length;
          break;
        }
        // A doubled quote inside quoted text is the quote itself ('it''s').
        if (close !== ']' && sql[at + 1] === close) {
          j = at + 2;
          continue;
        }
        j = at + 1;
        break;
      }
      emitSpace();
      out += sql.slice(i, j);
      i = j;
    } else {
      if (c === ')' || c === ',') space = false;
      emitSpace();
      out += c;
      i++;
    }
  }
  return out;
}

function schemaOf(db: Database.Database): Map<string, SchemaObject> {
  const rows = db.prepare('SELECT type, name, tbl_name AS tableName, sql FROM sqlite_master').all() as SchemaObject[];
  return new Map(rows.map((r) => [`${r.type} ${r.name}`, { ...r, sql: r.sql === null ? null : normalizeSql(r.sql) }]));
}

let expected: Map<string, SchemaObject> | undefined;

/** The schema this code's migrations build (all of them: only this version's snapshots load), built once in memory. */
function expectedSchema(): Map<string, SchemaObject> {
  if (!expected) {
    const db = new Database(':memory:');
    try {
      migrate(db);
      expected = schemaOf(db);
    } finally {
      db.close();
    }
  }
  return expected;
}

const columnsOf = (db: Database.Database, table: string): string[] =>
  (db.prepare('SELECT name FROM pragma_table_xinfo(?)').all(table) as Array<{ name: string }>).map((c) => c.name);

/** What a table's definition has that ours has not, or lacks: columns by name, else "a constraint or type". */
function tableDifference(file: Database.Database, name: string): string {
  const ours = new Database(':memory:');
  try {
    migrate(ours);
    const want = columnsOf(ours, name);
    const have = columnsOf(file, name);
    const extra = have.filter((c) => !want.includes(c));
    const missing = want.filter((c) => !have.includes(c));
    const parts = [
      ...(extra.length ? [`extra column${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`] : []),
      ...(missing.length ? [`no column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`] : []),
    ];
    return parts.length ? parts.join(', ') : 'a column type, default or constraint (a CHECK, a key) differs from ours';
  } finally {
    ours.close();
  }
}

/**
 * How a database file's schema differs from ours, one line per object (empty: it is ours exactly).
 * Read-only, with `trusted_schema` off, before anything writes to it: reading the schema runs nothing
 * of the file's.
 */
export function schemaDifferences(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('trusted_schema = OFF');
    const have = schemaOf(db);
    const want = expectedSchema();
    const out: string[] = [];
    for (const [key, object] of have) {
      const ours = want.get(key);
      if (!ours) {
        const what = object.type === 'table' || object.type === 'index' ? `${object.type === 'index' ? 'an' : 'a'} ${object.type} svc does not have` : `a ${object.type} (an svc database has none)`;
        out.push(`${object.type} "${object.name}"${object.tableName !== object.name ? ` on ${object.tableName}` : ''}: ${what}`);
      } else if (object.sql !== ours.sql || object.tableName !== ours.tableName) {
        out.push(`${object.type} "${object.name}": ${object.type === 'table' ? tableDifference(db, object.name) : 'defined differently from ours'}`);
      }
    }
    for (const [key, object] of want) if (!have.has(key)) out.push(`${object.type} "${object.name}" is missing`);
    return out;
  } finally {
    db.close();
  }
}
