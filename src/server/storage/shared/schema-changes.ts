// The schema from here on, written once for both engines. Each engine keeps the migrations it shipped
// (sqlite/migrations.ts up to 22, postgres/migrations.ts up to 7) exactly as they ran: files, databases
// and saved snapshots made by earlier builds migrate forward through them, and a snapshot loads only
// when its schema is byte for byte the one the migrations build. Every change after those is ONE entry
// here, its DDL written with the few words in which the engines' DDL differs (ColumnTypes), and each
// engine numbers entry i as its own last shipped version + 1 + i. Append only: never edit an entry
// that has shipped; add another.

/** One step of an engine's schema, as `schema_migrations` records it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The column types of each engine, for DDL written once. The choices, and why each engine makes them,
 * are in postgres/migrations.ts's header (ids `text COLLATE "C"` to compare bytes as SQLite does;
 * times and counts `bigint`; flags `boolean`; JSON kept as text).
 */
export interface ColumnTypes {
  /** Ids and other text, compared and ordered byte by byte on both engines. */
  text: string;
  /** Small integers: statuses, attempts, limits. */
  int: string;
  /** Milliseconds of service time, and counts that may grow large. */
  bigint: string;
  /** A yes/no; bind it with the engine's Dialect `flag`, read it back with rows/stored-flag.ts. */
  flag: string;
  /** A fraction (real time in milliseconds). */
  double: string;
  /** Raw bytes (media). */
  bytes: string;
  /** The keyset tie-break and feed position: `seq <this>` makes an auto-increasing primary key. */
  seqPrimaryKey: string;
}

/** One change of the schema, written once: its DDL for an engine's column types. */
export interface SchemaChange {
  name: string;
  sql(types: ColumnTypes): string;
}

/** The changes since each engine's last own migration, oldest first. */
export const SCHEMA_CHANGES: readonly SchemaChange[] = [];

/** An engine's whole migration list: its shipped history, then the shared changes numbered after it. */
export function engineMigrations(history: readonly Migration[], types: ColumnTypes, changes: readonly SchemaChange[] = SCHEMA_CHANGES): Migration[] {
  const head = Math.max(...history.map((m) => m.version));
  return [...history, ...changes.map((c, i) => ({ version: head + 1 + i, name: c.name, sql: c.sql(types) }))];
}

/** An engine's schema, as its migrations.ts exports it. */
export interface EngineSchema {
  /** Its whole migration list; `changes` differs from SCHEMA_CHANGES only in the storage contract's own check. */
  migrations(changes?: readonly SchemaChange[]): Migration[];
  /** The list the engine runs: its history, then SCHEMA_CHANGES. */
  MIGRATIONS: Migration[];
  /** The newest schema version the engine knows. */
  version: number;
}

/** An engine's schema from its shipped history and its words for the column types. */
export function engineSchema(history: readonly Migration[], types: ColumnTypes): EngineSchema {
  const migrations = (changes?: readonly SchemaChange[]): Migration[] => engineMigrations(history, types, changes);
  const MIGRATIONS = migrations();
  return { migrations, MIGRATIONS, version: Math.max(...MIGRATIONS.map((m) => m.version)) };
}
