import type { Db } from './database.js';

/** The attached in-memory database that holds the copy (per connection, gone when it closes). */
const SCHEMA = 'reset_point';

/**
 * A copy of every table, taken in the connection's own memory and written back in place (svc/testing
 * `reset()`).
 *
 * Why this shape: a test suite resets before every test, so a restore must cost a few milliseconds
 * and must not move the service (same port, same connection, same prepared statements). Closing
 * and reopening the database file, or SQLite's backup API (snapshots.ts), would replace the
 * connection every repository holds; a copy of each table into an attached `:memory:` schema and
 * back (`DELETE` + `INSERT … SELECT`, one transaction, foreign keys checked at its end) keeps it,
 * and for the small databases of a test (a seed of a few dozen rows) it is well under a millisecond
 * per table. `sqlite_sequence` is copied too, so ids and cursors after a reset are the same as after
 * the first start.
 */
export class ResetPoint {
  private constructor(
    private readonly db: Db,
    private readonly tables: readonly string[],
  ) {}

  /** Copies every table now; call with no transaction open (SqliteStore.exclusive). */
  static take(db: Db): ResetPoint {
    const attached = (db.prepare('PRAGMA database_list').all() as Array<{ name: string }>).some((d) => d.name === SCHEMA);
    if (!attached) db.exec(`ATTACH DATABASE ':memory:' AS ${SCHEMA}`);
    const tables = (db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((t) => t.name);
    const hasSequence = db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
    const copied = hasSequence ? [...tables, 'sqlite_sequence'] : tables;
    db.transaction(() => {
      for (const t of copied) {
        db.exec(`DROP TABLE IF EXISTS ${SCHEMA}.${quote(copyOf(t))}`);
        db.exec(`CREATE TABLE ${SCHEMA}.${quote(copyOf(t))} AS SELECT * FROM main.${quote(t)}`);
      }
    })();
    return new ResetPoint(db, copied);
  }

  /** Writes every table back as it was when taken; one transaction (all or nothing). */
  restore(): void {
    this.db.transaction(() => {
      // Rows come back in any order: their references are checked at COMMIT, not row by row.
      this.db.pragma('defer_foreign_keys = ON');
      for (const t of this.tables) {
        this.db.exec(`DELETE FROM main.${quote(t)}`);
        this.db.exec(`INSERT INTO main.${quote(t)} SELECT * FROM ${SCHEMA}.${quote(copyOf(t))}`);
      }
    })();
  }
}

/** A copy's name: SQLite reserves `sqlite_*` names for itself. */
const copyOf = (table: string): string => `copy_${table}`;
const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
