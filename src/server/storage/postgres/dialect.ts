import type { Dialect } from '../shared/statements.js';
import { lockAccountFeed } from './feed-order.js';
import { DB_NOW_MS, type Sql, type Statement as PgStatement } from './sql.js';

/** The PostgreSQL engine's side of what the repositories written once leave to each engine (shared/statements.ts). */
export const pgDialect: Dialect = {
  flag: (v) => v,
  anyOf: (condition) => `COALESCE(bool_or(${condition}), false)`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS j(value) WHERE j.value = ?)`,
  lockFeed: lockAccountFeed,

  // The send's families (shared/statements.ts says what each member is for).
  insertThen: (db, q) => {
    const both = db.prepare(`WITH inserted AS (${q.insert} RETURNING ${q.returning}) ${q.then}`);
    return {
      run: async (...params) => {
        await both.run(...params);
      },
    };
  },
  // The engine's statements are postgres/sql.ts's, which can send without waiting.
  runLast: (stmt, params) => (stmt as PgStatement).later(...params),
  cells: () => undefined,
  // The server's clock (sql.ts DB_NOW_MS): replicas' own clocks may disagree.
  wallMs: DB_NOW_MS,
  inList: (column) => `${column} = ANY(?::text[])`,
  list: (values) => values,
  // Rows another replica's open claim has locked are left to it, not waited for.
  skipLocked: 'FOR UPDATE SKIP LOCKED',
  recordset: (fields) => `jsonb_to_recordset(?::jsonb) AS u(${fields.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  // A failed statement aborts the whole transaction: a savepoint of its own confines it (sql.ts
  // translates the violation).
  guarded: async (db, write) => await (db as Sql).guarded(write),
  // Once per transaction: other replicas write between transactions.
  heldReads: (db, name) => ({
    get: async (key, read) => await (db as Sql).once(`${name}:${key}`, read),
    changed: () => (db as Sql).forget(`${name}:`),
  }),
};
