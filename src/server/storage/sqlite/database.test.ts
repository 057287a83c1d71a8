import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
