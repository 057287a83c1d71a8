import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupCommit } from './group-commit.js';

function freshDb(file = ':memory:') {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE parents (id INTEGER PRIMARY KEY);
           CREATE TABLE rows (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE,
             parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)`);
  db.prepare('INSERT INTO parents (id) VALUES (1)').run();
  return db;
}

const count = (db: Database.Database) => (db.prepare('SELECT COUNT(*) AS n FROM rows').get() as { n: number }).n;

/** A database file and a second connection that sees only what has been committed. */
function withObserver() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-group-commit-'));
  const db = freshDb(join(dir, 'g.db'));
  const observer = new Database(join(dir, 'g.db'), { readonly: true });
  return { db, committed: () => count(observer), close: () => (observer.close(), db.close(), rmSync(dir, { recursive: true, force: true })) };
}

describe('GroupCommit', () => {
  it('runs the writes of one turn in one transaction, each settling after the commit', async () => {
    const { db, committed, close } = withObserver();
    try {
      const group = new GroupCommit(db);
      const committedBefore: number[] = [];
      const results = Promise.all(
        [1, 2, 3, 4, 5].map((i) =>
          group.run(() => {
            committedBefore.push(committed());
            db.prepare('INSERT INTO rows (v, parent) VALUES (?, 1)').run(`r${i}`);
            return i * 10;
          }),
        ),
      );
      // Nothing runs before the turn ends: the batch is formed first.
      expect(count(db)).toBe(0);
      const values = await results;
      expect(values).toEqual([10, 20, 30, 40, 50]);
      // One transaction: no write was committed while the others ran; all five once it settled.
      expect(committedBefore).toEqual([0, 0, 0, 0, 0]);
      expect(committed()).toBe(5);
      expect(db.inTransaction).toBe(false);
    } finally {
      close();
    }
  });

  it('rolls back only the write that throws; the others commit', async () => {
    const db = freshDb();
    const group = new GroupCommit(db);
    const settled = await Promise.allSettled([
      group.run(() => db.prepare('INSERT INTO rows (v) VALUES (?)').run('a').changes),
      group.run(() => {
        db.prepare('INSERT INTO rows (v) VALUES (?)').run('half-written');
        throw new Error('refused after a write');
      }),
      group.run(() => db.prepare('INSERT INTO rows (v) VALUES (?)').run('a').changes), // UNIQUE: SQLite refuses
      group.run(() => db.prepare('INSERT INTO rows (v) VALUES (?)').run('b').changes),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toBe('refused after a write');
    const values = (db.prepare('SELECT v FROM rows ORDER BY id').all() as Array<{ v: string }>).map((r) => r.v);
    expect(values).toEqual(['a', 'b']);
  });

  it('rejects every write of the batch when the COMMIT itself fails, and keeps none of them', async () => {
    const db = freshDb();
    const group = new GroupCommit(db);
    const settled = await Promise.allSettled([
      group.run(() => db.prepare('INSERT INTO rows (v, parent) VALUES (?, 1)').run('fine')),
      // A deferred foreign key is checked at COMMIT: this makes the whole COMMIT fail.
      group.run(() => db.prepare('INSERT INTO rows (v, parent) VALUES (?, 99)').run('orphan')),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(count(db)).toBe(0);
    expect(db.inTransaction).toBe(false);
    // The committer carries on with the next turn.
    await expect(group.run(() => db.prepare('INSERT INTO rows (v, parent) VALUES (?, 1)').run('later').changes)).resolves.toBe(1);
    expect(count(db)).toBe(1);
  });

  it('keeps a turn to a bounded batch and commits the rest in the next one', async () => {
    const { db, committed, close } = withObserver();
    try {
      const group = new GroupCommit(db);
      const committedBefore: number[] = [];
      const all = await Promise.all(
        Array.from({ length: 1200 }, (_, i) =>
          group.run(() => {
            committedBefore.push(committed());
            db.prepare('INSERT INTO rows (v) VALUES (?)').run(`x${i}`);
            return i;
          }),
        ),
      );
      expect(all).toHaveLength(1200);
      expect(committed()).toBe(1200);
      // Batches of 512: the first saw nothing committed, the second the first batch, the third both.
      expect(committedBefore[0]).toBe(0);
      expect(committedBefore[511]).toBe(0);
      expect(committedBefore[512]).toBe(512);
      expect(committedBefore[1023]).toBe(512);
      expect(committedBefore[1024]).toBe(1024);
    } finally {
      close();
    }
  });
});
