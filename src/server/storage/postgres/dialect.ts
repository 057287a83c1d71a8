import type { Dialect } from '../shared/statements.js';
import { lockAccountFeed } from './feed-order.js';
import { DB_NOW_MS, type Statement as PgStatement } from './sql.js';

/** The PostgreSQL engine's side of what the repositories written once leave to each engine (shared/statements.ts). */
export const pgDialect: Dialect = {
  flag: (v) => v,
  anyOf: (condition) => `COALESCE(bool_or(${condition}), false)`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS j(value) WHERE j.value = ?)`,
  lockFeed: lockAccountFeed,

  // The send's families (shared/statements.ts says what each member is for).
  skipLocked: 'FOR UPDATE SKIP LOCKED',
  leaseClock: DB_NOW_MS,
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
  oneOf: { condition: (column) => `${column} = ANY(?::text[])`, bind: (values) => [...values] },
};
