import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './database.js';

// database.ts caches statements per SQL text; that is only safe while no code changes a statement's
// mode or iterates one statement twice at once.

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the statement cache', () => {
  it('answers the same statement for the same SQL, and each statement still runs with its own arguments', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (a INTEGER)');
    const insert = db.prepare('INSERT INTO t (a) VALUES (?)');
    expect(db.prepare('INSERT INTO t (a) VALUES (?)')).toBe(insert);
    insert.run(1);
    db.prepare('INSERT INTO t (a) VALUES (?)').run(2);
    expect(db.prepare('SELECT a FROM t ORDER BY a').all()).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('no service code changes a statement mode or iterates a statement', () => {
    const files = sources(join(__dirname, '..', '..'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) => /\.(pluck|raw|expand|safeIntegers|iterate)\(/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('a new database file', () => {
  afterEach(() => vi.useRealTimers());
  const schema = (db: ReturnType<typeof openDatabase>) =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();

  it('starts from the migrated image with the schema, migrations and file settings of one migrated in place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-db-image-'));
    try {
      const inPlace = openDatabase(':memory:'); // every migration run statement by statement
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2020-01-01T00:00:00.000Z'));
      const first = openDatabase(join(dir, 'a', 'svc.db')); // makes the image (if no test before did)
      vi.setSystemTime(new Date('2021-06-01T00:00:00.000Z'));
      const second = openDatabase(join(dir, 'b', 'svc.db')); // the image, made once, used again
      const openedAt = { first: '2020-01-01T00:00:00.000Z', second: '2021-06-01T00:00:00.000Z' };
      for (const [which, db] of [['first', first], ['second', second]] as const) {
        expect(schema(db)).toEqual(schema(inPlace));
        const applied = db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as Array<{ applied_at: string }>;
        expect(applied.map(({ applied_at: _, ...m }) => m)).toEqual(
          inPlace.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all(),
        );
        // Recorded as applied when this file was made, not when the image was.
        expect(new Set(applied.map((m) => m.applied_at))).toEqual(new Set([openedAt[which]]));
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.pragma('foreign_key_check')).toEqual([]);
        db.close();
      }
      expect(statSync(join(dir, 'a', 'svc.db')).mode & 0o777).toBe(0o600);
      inPlace.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an existing file is opened as it is, never overwritten by the image', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-db-image-'));
    try {
      const file = join(dir, 'svc.db');
      const db = openDatabase(file);
      db.exec('CREATE TABLE kept (a INTEGER)');
      db.prepare('INSERT INTO kept (a) VALUES (7)').run();
      db.close();
      const again = openDatabase(file);
      expect(again.prepare('SELECT a FROM kept').all()).toEqual([{ a: 7 }]);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
