// A yes/no column as the engines hand it back: SQLite has no boolean type and stores 0 or 1;
// PostgreSQL's boolean comes back as true or false. Writes bind 0/1 on SQLite (better-sqlite3 binds
// no booleans) and booleans on PostgreSQL: through the engine's dialect in the repositories written
// once (shared/statements.ts), in their own code in the rest.
export type StoredFlag = number | boolean;

/** The flag's value, from either engine. */
export const flag = (v: StoredFlag): boolean => v === true || v === 1;

/** How an engine binds a flag it writes: 0/1 for SQLite, the boolean itself for PostgreSQL. */
export type BindFlag = (v: boolean) => StoredFlag;
