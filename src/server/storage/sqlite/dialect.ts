import type { Dialect } from '../shared/statements.js';
import type { Db } from './database.js';
import { SqliteHeldReads } from './held-reads.js';
import { inStorageTerms } from './unique-violation.js';

/** The SQLite engine's side of what the repositories written once leave to each engine (shared/statements.ts). */
export const sqliteDialect: Dialect = {
  // better-sqlite3 binds no booleans; a flag column holds 0 or 1.
  flag: (v) => (v ? 1 : 0),
  // A comparison is 0 or 1 in SQLite, so the largest is 1 when any row matched.
  anyOf: (condition) => `COALESCE(MAX(${condition}), 0)`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) j WHERE j.value = ?)`,
  // One connection writes one transaction at a time: positions commit in the order they were given.
  lockFeed: async () => undefined,

  // The send's families (shared/statements.ts says what each member is for).
  insertThen: (db, q) => {
    const insert = db.prepare(q.insert);
    const then = db.prepare(`WITH inserted AS (SELECT ${q.returning} FROM ${q.table} WHERE rowid = last_insert_rowid()) ${q.then}`);
    return {
      // better-sqlite3 answers (or throws) at once: nothing to wait for between the two.
      run: async (...params) => {
        void insert.run(...params);
        void then.run();
      },
    };
  },
  runLast: (stmt, params) => void stmt.run(...params),
  cells: (columns) => `json_array(${columns.join(', ')}) AS cells`,
  // The wall clock of this machine (every process on the file shares it), to the millisecond.
  wallMs: "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
  // No array binding: the list goes as one JSON text.
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  list: (values) => JSON.stringify(values),
  // One writer at a time: no claimant's lock to skip.
  skipLocked: '',
  // A batch as rows, one prepared statement each: cheaper here than reading it from JSON.
  recordset: null,
  // The failed statement alone is undone; only its error needs the storage's terms.
  guarded: async (_db, write) => {
    try {
      return await write();
    } catch (err) {
      throw inStorageTerms(err);
    }
  },
  heldReads: (db) => new SqliteHeldReads(db as Db),
};
