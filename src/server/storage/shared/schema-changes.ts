// The schema, written once for both engines. A new database gets the whole schema in one step: the
// shared tables (shared-schema.ts) and what only its engine has (its migrations.ts), recorded as the
// engine's base version (SQLite 21, PostgreSQL 6: the last it shipped before the schema was written
// once). A database an earlier build made migrates forward: from the engine's oldest supported version
// through its upgrade steps to the base, then through the changes below. Older than that is refused
// with a clear error and nothing changed (the migrations that made such a database are in git's
// history; the build before this one opens it and brings it forward).
// Every change after the base is ONE entry in SCHEMA_CHANGES, its DDL written with the few words in
// which the engines' DDL differs (ColumnTypes); each engine numbers entry i as its base + 1 + i.
// Append only: never edit an entry that has shipped; add another.
import { UnsupportedSchemaError } from '../storage-errors.js';
import { sharedSchema, type ColumnTypes } from './shared-schema.js';

/** One step of an engine's schema, as `schema_migrations` records it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
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

/**
 * The last step both engines took before the schema was written once, the same change numbered by
 * each (SQLite 21, PostgreSQL 6): a database made just before it comes forward through it.
 * contract §2: a request with the same key still in flight is a 409, not a replay. A send records its
 * answer in its own transaction (no in-flight row first), so a duplicate finds only the answer;
 * answered_at (real time, fractional ms) says whether it was written after the duplicate arrived
 * (then the first was still in flight: 409) or before (a retry: the replay).
 */
export const IDEMPOTENCY_ANSWERED_AT: SchemaChange = {
  name: 'when an idempotency key was answered, on the real clock',
  sql: (t) => `ALTER TABLE idempotency_keys ADD COLUMN answered_at ${t.double};`,
};

/** An engine's schema: its column types, what only it has, and how its older databases come forward. */
export interface EngineSchemaSpec {
  types: ColumnTypes;
  /** The DDL of what only this engine has, run after the shared tables when a database is new. */
  own: string;
  /** The version a new database records for the shared tables and `own` together. */
  base: number;
  /** The steps that bring a database made by an earlier build up to `base`, oldest first, each with the version this engine numbers it. */
  upgrades: ReadonlyArray<{ version: number; change: SchemaChange }>;
}

/** An engine's schema, as its migrations.ts exports it. */
export interface EngineSchema {
  /**
   * The steps that bring a database recording `applied` to the newest schema, in order (none: it is
   * there). Throws UnsupportedSchemaError for a database newer than this build, or older than the
   * oldest it migrates. `changes` differs from SCHEMA_CHANGES only in the storage contract's own check.
   */
  pending(applied: readonly number[], changes?: readonly SchemaChange[]): Migration[];
  /** The newest schema version this build knows. */
  version: number;
  /** The oldest version this build migrates forward. */
  oldest: number;
}

export function engineSchema(spec: EngineSchemaSpec): EngineSchema {
  const whole: Migration = { version: spec.base, name: 'the schema, written once', sql: `${sharedSchema(spec.types)}\n${spec.own}` };
  const upgrades: Migration[] = spec.upgrades.map((u) => ({ version: u.version, name: u.change.name, sql: u.change.sql(spec.types) }));
  const oldest = Math.min(spec.base, ...upgrades.map((m) => m.version - 1));
  const numbered = (changes: readonly SchemaChange[]): Migration[] =>
    changes.map((c, i) => ({ version: spec.base + 1 + i, name: c.name, sql: c.sql(spec.types) }));
  const version = spec.base + SCHEMA_CHANGES.length;
  return {
    version,
    oldest,
    pending(applied, changes = SCHEMA_CHANGES) {
      const later = numbered(changes);
      const newest = Math.max(spec.base, ...later.map((m) => m.version));
      if (applied.length === 0) return [whole, ...later];
      const at = Math.max(...applied);
      if (at > newest) throw new UnsupportedSchemaError(String(at), newest);
      if (at < oldest) throw new UnsupportedSchemaError(String(at), newest, oldest);
      return [...upgrades.filter((m) => m.version > at), ...later.filter((m) => m.version > at)];
    },
  };
}
