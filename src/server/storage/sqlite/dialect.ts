import type { Dialect } from '../shared/statements.js';

/** The SQLite engine's side of what the repositories written once leave to each engine (shared/statements.ts). */
export const sqliteDialect: Dialect = {
  // better-sqlite3 binds no booleans; a flag column holds 0 or 1.
  flag: (v) => (v ? 1 : 0),
  // A comparison is 0 or 1 in SQLite, so the largest is 1 when any row matched.
  anyOf: (condition) => `COALESCE(MAX(${condition}), 0)`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_each(${column}) j WHERE j.value = ?)`,
  // One connection writes one transaction at a time: positions commit in the order they were given.
  lockFeed: async () => undefined,
};
