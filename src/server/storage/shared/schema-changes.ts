// The schema from here on, written once for both engines. Each engine keeps the migrations it shipped
// (sqlite/migrations.ts up to 21, postgres/migrations.ts up to 6) exactly as they ran: files, databases
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
  /** A yes/no; bind it with the engine's Dialect `flag`, read it back through table.ts `yesNo`. */
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
export const SCHEMA_CHANGES: readonly SchemaChange[] = [
  {
    name: 'sinks: webhook endpoints the service serves itself, and the requests they keep',
    // contract §10 (extension, local service only): a sink is one webhook endpoint of the account
    // whose URL is the service's own /sinks/{id}; it goes with its endpoint. `received` counts its
    // requests: the next one's position (taken under the sink's row lock on PostgreSQL, so positions
    // commit in order). respond_* say how it answers (delay below 30 s). It keeps its newest requests
    // only (a bounded number, bodies cut to a bounded size): a flooded sink stays small.
    sql: (t) => `
      CREATE TABLE sinks (
        seq ${t.seqPrimaryKey},
        id ${t.text} NOT NULL UNIQUE,
        account_id ${t.text} NOT NULL REFERENCES accounts(id),
        endpoint_id ${t.text} NOT NULL UNIQUE REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        url ${t.text} NOT NULL,
        respond_status ${t.int} NOT NULL CHECK (respond_status BETWEEN 200 AND 599),
        fail_first ${t.int} NOT NULL DEFAULT 0 CHECK (fail_first >= 0),
        delay_ms ${t.int} NOT NULL DEFAULT 0 CHECK (delay_ms BETWEEN 0 AND 30000),
        received ${t.bigint} NOT NULL DEFAULT 0,
        created_at ${t.bigint} NOT NULL
      );
      CREATE INDEX sinks_account ON sinks(account_id, created_at, seq);
      CREATE TABLE sink_requests (
        sink_id ${t.text} NOT NULL REFERENCES sinks(id) ON DELETE CASCADE,
        seq ${t.bigint} NOT NULL,
        id ${t.text} NOT NULL,
        received_at ${t.bigint} NOT NULL,
        event_id ${t.text},
        event_type ${t.text},
        attempt ${t.int},
        headers ${t.text} NOT NULL,
        body ${t.text} NOT NULL,
        signature_valid ${t.flag} NOT NULL,
        answered_status ${t.int},
        PRIMARY KEY (sink_id, seq)
      );
      CREATE INDEX sink_requests_event ON sink_requests(sink_id, event_id);`,
  },
];

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
