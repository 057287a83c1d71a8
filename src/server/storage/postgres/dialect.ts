import type { Dialect } from '../shared/statements.js';
import { lockAccountFeed } from './feed-order.js';

/** The PostgreSQL engine's side of what the repositories written once leave to each engine (shared/statements.ts). */
export const pgDialect: Dialect = {
  flag: (v) => v,
  anyOf: (condition) => `COALESCE(bool_or(${condition}), false)`,
  jsonArrayHas: (column) => `EXISTS (SELECT 1 FROM json_array_elements_text(${column}::json) AS j(value) WHERE j.value = ?)`,
  lockFeed: lockAccountFeed,
};
