import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SqliteStore } from './store.js';
import { openDatabase, type Db } from './database.js';

// The SQLite engine's store (group commit; the storage seam). Raw SQL on the
// store's own connection stands for a repository's writes: it runs inside whatever transaction is open.

/** The service's schema, plus a scratch table with a deferred foreign key (checked at COMMIT). */
function freshDb(file = ':memory:'): Db {
  const db = openDatabase(file);
  db.exec(`CREATE TABLE parents (id INTEGER PRIMARY KEY);
           CREATE TABLE rows (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE,
             parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)`);
  db.prepare('INSERT INTO parents (id) VALUES (1)').run();
  return db;
}

const count = (db: Database.Database) => (db.prepare('SELECT COUNT(*) AS n FROM rows').get() as { n: number }).n;
const values = (db: Database.Database) => (db.prepare('SELECT v FROM rows ORDER BY id').all() as Array<{ v: string }>).map((r) => r.v);
const insert = (db: Database.Database, v: string, parent: number | null = null) => db.prepare('INSERT INTO rows (v, parent) VALUES (?, ?)').run(v, parent).changes;

/** A database file, its store, and a second connection that sees only what has been committed. */
function withObserver(opts: { guardOutsideCalls?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
  const db = freshDb(join(dir, 'g.db'));
  const store = new SqliteStore(db, opts);
  const observer = new Database(join(dir, 'g.db'), { readonly: true });
  return {
    db,
    store,
    committed: () => count(observer),
    close: async () => {
      observer.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('SqliteStore group commit', () => {
  it('runs the writes of one turn in one transaction, each settling only after the commit', async () => {
    const { db, store, committed, close } = withObserver();
    try {
      const committedBefore: number[] = [];
      const settledWith: number[] = [];
      const results = Promise.all(
        [1, 2, 3, 4, 5].map((i) =>
          store
            .write(async () => {
              committedBefore.push(committed());
              insert(db, `r${i}`, 1);
              return i * 10;
            })
            .then((v) => {
              settledWith.push(committed());
              return v;
            }),
        ),
      );
      // Nothing runs before the turn ends: the batch is formed first.
      expect(count(db)).toBe(0);
      expect(await results).toEqual([10, 20, 30, 40, 50]);
      // One transaction: no write was committed while the others ran; each settled once all five were.
      expect(committedBefore).toEqual([0, 0, 0, 0, 0]);
      expect(settledWith).toEqual([5, 5, 5, 5, 5]);
      expect(db.inTransaction).toBe(false);
    } finally {
      await close();
    }
  });

  it('rolls back only the write that throws; the others commit', async () => {
    const db = freshDb();
    const store = new SqliteStore(db);
    const settled = await Promise.allSettled([
      store.write(async () => insert(db, 'a')),
      store.write(async () => {
        insert(db, 'half-written');
        throw new Error('refused after a write');
      }),
      store.write(async () => insert(db, 'a')), // UNIQUE: SQLite refuses
      store.write(async () => insert(db, 'b')),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toBe('refused after a write');
    expect(values(db)).toEqual(['a', 'b']);
    await store.close();
  });

  it('rejects every write of the batch when the COMMIT itself fails, keeps none of them, and carries on', async () => {
    const db = freshDb();
    const store = new SqliteStore(db);
    const settled = await Promise.allSettled([
      store.write(async () => insert(db, 'fine', 1)),
      // A deferred foreign key is checked at COMMIT: this makes the whole COMMIT fail.
      store.write(async () => insert(db, 'orphan', 99)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(count(db)).toBe(0);
    expect(db.inTransaction).toBe(false);
    await expect(store.write(async () => insert(db, 'later', 1))).resolves.toBe(1);
    expect(count(db)).toBe(1);
    await store.close();
  });

  it('keeps a turn to a bounded batch and commits the rest in the next one', async () => {
    const { db, store, committed, close } = withObserver();
    try {
      const committedBefore: number[] = [];
      const all = await Promise.all(
        Array.from({ length: 1200 }, (_, i) =>
          store.write(async () => {
            committedBefore.push(committed());
            insert(db, `x${i}`);
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
      await close();
    }
  });
});

describe('SqliteStore reads, hooks and savepoints', () => {
  it('a read asked for while a batch is open waits for its commit: it never sees uncommitted rows', async () => {
    const db = freshDb();
    const store = new SqliteStore(db);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let readSaw: number | undefined;
    const writing = store.write(async () => {
      insert(db, 'pending');
      await gate; // the batch stays open
    });
    // Let the batch open and its write run up to the gate.
    while (count(db) === 0) await new Promise((r) => setImmediate(r));
    const reading = store.read(async () => (readSaw = count(db)));
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(readSaw).toBeUndefined(); // still waiting
    release();
    await writing;
    await reading;
    expect(readSaw).toBe(1);
    await store.close();
  });

  it('afterCommit runs once the transaction has committed, never for a write that rolled back', async () => {
    const { db, store, committed, close } = withObserver();
    try {
      const ran: Array<{ hook: string; committed: number }> = [];
      const settled = await Promise.allSettled([
        store.write(async (tx) => {
          insert(db, 'kept');
          tx.afterCommit(() => ran.push({ hook: 'kept', committed: committed() }));
        }),
        store.write(async (tx) => {
          insert(db, 'dropped');
          tx.afterCommit(() => ran.push({ hook: 'dropped', committed: committed() }));
          throw new Error('rolled back');
        }),
        store.write(async (tx) => {
          // A savepoint that rolls back takes its hooks with it; the outer write's hook stays.
          tx.afterCommit(() => ran.push({ hook: 'outer', committed: committed() }));
          await tx
            .savepoint(async (inner) => {
              inner.afterCommit(() => ran.push({ hook: 'inner dropped', committed: committed() }));
              throw new Error('inner fails');
            })
            .catch(() => undefined);
          await tx.savepoint(async (inner) => inner.afterCommit(() => ran.push({ hook: 'inner kept', committed: committed() })));
        }),
      ]);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(ran).toEqual([
        { hook: 'kept', committed: 1 },
        { hook: 'outer', committed: 1 },
        { hook: 'inner kept', committed: 1 },
      ]);
    } finally {
      await close();
    }
  });

  it('a savepoint that throws rolls back its own writes only; nested savepoints run one at a time, in order', async () => {
    const db = freshDb();
    const store = new SqliteStore(db);
    const order: string[] = [];
    await store.write(async (tx) => {
      insert(db, 'outer');
      await expect(
        tx.savepoint(async () => {
          insert(db, 'inner rolled back');
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      // Asked for together: the second starts only once the first has finished.
      await Promise.all([
        tx.savepoint(async () => {
          order.push('first started');
          await new Promise((r) => setImmediate(r));
          insert(db, 'first');
          order.push('first finished');
        }),
        tx.savepoint(async (inner) => {
          order.push('second started');
          await inner.savepoint(async () => void insert(db, 'second, nested'));
        }),
      ]);
    });
    expect(values(db)).toEqual(['outer', 'first', 'second, nested']);
    expect(order).toEqual(['first started', 'first finished', 'second started']);
    await store.close();
  });
});

describe('SqliteStore guardOutsideCalls', () => {
  it('refuses a top-level write from inside a write, and assertNoTransaction throws inside one only', async () => {
    const db = freshDb();
    const store = new SqliteStore(db, { guardOutsideCalls: true });
    expect(() => store.assertNoTransaction('the carrier')).not.toThrow();
    await expect(
      store.write(async () => {
        await store.write(async () => insert(db, 'never'));
      }),
    ).rejects.toThrow(/from inside an open transaction/);
    await expect(
      store.write(async () => {
        store.assertNoTransaction('the carrier');
      }),
    ).rejects.toThrow(/the carrier called while a transaction is open/);
    // Inside a savepoint too.
    await expect(store.write(async (tx) => await tx.savepoint(async () => store.assertNoTransaction('DNS')))).rejects.toThrow(/DNS called/);
    expect(count(db)).toBe(0);
    expect(() => store.assertNoTransaction('the carrier')).not.toThrow();
    await store.close();
  });

  it('without the option, nothing is checked', async () => {
    const db = freshDb();
    const store = new SqliteStore(db);
    await expect(store.write(async () => store.assertNoTransaction('the carrier'))).resolves.toBeUndefined();
    await store.close();
  });
});

describe('SqliteStore checkpoint thread (checkpointer.ts)', () => {
  const autocheckpoint = (db: Db) => db.pragma('wal_autocheckpoint', { simple: true }) as number;

  it('starts after the set number of commits, folds the log into the file from its own connection, and stops on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ckpt-'));
    try {
      const db = freshDb(join(dir, 'c.db'));
      const store = new SqliteStore(db, { checkpointAfterCommits: 3 });
      await store.write(async () => void insert(db, 'a'));
      await store.write(async () => void insert(db, 'b'));
      expect(store.checkpointer).toBeUndefined();
      expect(autocheckpoint(db)).toBe(1000);
      await store.write(async () => void insert(db, 'c'));
      expect(store.checkpointer).toBeDefined();
      // The writer's own checkpoints are pushed back to a backstop: the thread does them.
      expect(autocheckpoint(db)).toBeGreaterThan(1000);
      for (let i = 0; i < 50; i++) await store.write(async () => void insert(db, `r${i}`));
      const result = await store.checkpointer!.checkpointNow();
      expect(result.log).toBeGreaterThan(0);
      expect(result.checkpointed).toBe(result.log);
      expect(store.checkpointer!.lastError).toBeUndefined();
      await store.close();
      // Closed cleanly: the file alone holds every row.
      const reopened = new Database(join(dir, 'c.db'), { readonly: true });
      expect(count(reopened)).toBe(53);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an in-memory database has no log and gets no thread; 0 never starts one', async () => {
    const mem = new SqliteStore(freshDb(), { checkpointAfterCommits: 1 });
    await mem.write(async () => undefined);
    expect(mem.checkpointer).toBeUndefined();
    await mem.close();
    const dir = mkdtempSync(join(tmpdir(), 'svc-ckpt-'));
    try {
      const db = freshDb(join(dir, 'n.db'));
      const never = new SqliteStore(db, { checkpointAfterCommits: 0 });
      for (let i = 0; i < 5; i++) await never.write(async () => void insert(db, `n${i}`));
      expect(never.checkpointer).toBeUndefined();
      await never.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The thread is unref'd: a close as a process's last act must still wait for it. Node once ended
  // such a process with exit 13 before the close finished. A child process of its own, since what is
  // tested is how the process ends; it runs the build (a plain node process cannot load this source).
  it('closing the store as the last act of a process waits for the thread and exits 0', () => {
    const built = (file: string) => fileURLToPath(new URL(`../../../../dist/server/storage/sqlite/${file}`, import.meta.url));
    if (!existsSync(built('store.js'))) throw new Error('dist/ is missing: run `npm run build` first (this test runs the built store in a child process)');
    const dir = mkdtempSync(join(tmpdir(), 'svc-close-exit-'));
    try {
      const script = `
        const { openDatabase } = await import(${JSON.stringify(pathToFileURL(built('database.js')).href)});
        const { SqliteStore } = await import(${JSON.stringify(pathToFileURL(built('store.js')).href)});
        const store = new SqliteStore(openDatabase(${JSON.stringify(join(dir, 'svc.db'))}), { checkpointAfterCommits: 1 });
        await store.write(async () => undefined);
        if (!store.checkpointer) throw new Error('no checkpoint thread');
        await store.close();
        console.log('closed');`;
      const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
      expect(res.stderr).toBe('');
      expect({ status: res.status, stdout: res.stdout }).toEqual({ status: 0, stdout: 'closed\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// `--role api` and `--role worker` are two processes on one file. Two connections in one
// process are the same to SQLite (PRAGMA data_version moves for a commit made by any other connection).
describe('a second process on the same file', () => {
  async function twoStores() {
    const dir = mkdtempSync(join(tmpdir(), 'svc-two-'));
    const a = new SqliteStore(openDatabase(join(dir, 'svc.db')));
    const b = new SqliteStore(openDatabase(join(dir, 'svc.db')));
    const account = { id: 'acc_1', name: 'A', parentId: null, isAgency: true, status: 'active' as const, mode: 'live' as const, createdAt: 1, updatedAt: 1 };
    await a.write(async (tx) => {
      await tx.accounts.insert(account);
      await tx.keys.insert({ id: 'key_1', accountId: 'acc_1', name: 'k', mode: 'live', prefix: 'sk_live_x', hash: 'h1', createdAt: 1, lastUsedAt: null, revokedAt: null });
    });
    return {
      a,
      b,
      close: async () => {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it('a key revoked, an account suspended, an endpoint added through one are seen by the other on its very next read and write, caches or not', async () => {
    const { a, b, close } = await twoStores();
    try {
      // Held between transactions by A (held-reads.ts, the endpoints' routes).
      expect((await a.read((r) => r.keys.findByHash('h1')))?.revokedAt).toBeNull();
      expect((await a.read((r) => r.accounts.get('acc_1')))?.status).toBe('active');
      expect(await a.read((r) => r.webhookEndpoints.enabledForAccount('acc_1'))).toEqual([]);
      expect(await a.write((tx) => tx.keys.findByHash('h1'))).toMatchObject({ revokedAt: null });

      await b.write(async (tx) => {
        await tx.keys.revoke('key_1', 5);
        await tx.accounts.update('acc_1', { status: 'suspended' }, 5);
        await tx.webhookEndpoints.insert({ id: 'we_1', accountId: 'acc_1', url: 'http://127.0.0.1:9/h', events: ['*'], description: null, secret: 'whsec_x', enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null, lastSuccessAt: null, mode: 'live', createdAt: 5, updatedAt: 5 });
      });

      expect((await a.read((r) => r.keys.findByHash('h1')))?.revokedAt).toBe(5);
      expect((await a.read((r) => r.accounts.get('acc_1')))?.status).toBe('suspended');
      expect((await a.read((r) => r.webhookEndpoints.enabledForAccount('acc_1'))).map((e) => e.id)).toEqual(['we_1']);
      await b.write((tx) => tx.keys.revoke('key_1', 6)); // no change, still a commit: the next batch checks too
      await b.write(async (tx) => await tx.accounts.update('acc_1', { status: 'active' }, 7));
      expect(await a.write((tx) => tx.accounts.get('acc_1'))).toMatchObject({ status: 'active' });
    } finally {
      await close();
    }
  });

  it('counts the commits another connection made (a worker polls only when there are some), not its own', async () => {
    const { a, b, close } = await twoStores();
    try {
      const seen = a.otherWritersSeen();
      await a.write(async (tx) => await tx.accounts.update('acc_1', { name: 'own' }, 2));
      expect(a.otherWritersSeen()).toBe(seen);
      await b.write(async (tx) => await tx.accounts.update('acc_1', { name: 'other' }, 3));
      expect(a.otherWritersSeen()).toBe(seen + 1);
      expect(a.otherWritersSeen()).toBe(seen + 1);
    } finally {
      await close();
    }
  });

  it('a batch waiting for the write lock another process holds does not freeze this one: timers, reads and more writes go on, and it commits once the lock is free', async () => {
    const { a, close } = await twoStores();
    try {
      // The other process holds the write lock until this one tells it to let go (here: a timer). With
      // SQLite's busy handler the BEGIN slept inside the call, the timer could not fire, and after the
      // whole busy timeout the batch failed with SQLITE_BUSY.
      const other = new Database((a.db as unknown as { name: string }).name);
      other.exec('BEGIN IMMEDIATE');
      other.prepare("UPDATE accounts SET name = 'other' WHERE id = 'acc_1'").run();
      const first = a.write(async (tx) => await tx.accounts.update('acc_1', { name: 'first' }, 2));
      let ticks = 0;
      await new Promise<void>((resolve) => {
        const tick = () => (++ticks === 5 ? resolve() : setTimeout(tick, 5));
        setTimeout(tick, 5);
      });
      // Meanwhile reads see what is committed, and another write joins the waiting batch.
      expect((await a.read((r) => r.accounts.get('acc_1')))?.name).toBe('A');
      const second = a.write(async (tx) => (await tx.accounts.get('acc_1'))!.name);
      other.exec('COMMIT');
      other.close();
      await first;
      expect(await second).toBe('first');
      expect(ticks).toBe(5);
    } finally {
      await close();
    }
  });

  it('a batch that reads, waits, then writes commits though another process wants to write meanwhile (BEGIN IMMEDIATE: the other waits)', async () => {
    const { a, close } = await twoStores();
    try {
      const other = new Database((a.db as unknown as { name: string }).name, { timeout: 0 });
      let otherRefused = false;
      const name = await a.write(async (tx) => {
        const before = (await tx.accounts.get('acc_1'))!.name;
        // Another process writes while this batch is open. With a deferred BEGIN it committed, and
        // this batch's write then failed at once with SQLITE_BUSY (its snapshot was stale).
        await new Promise((r) => setImmediate(r));
        try {
          other.prepare("UPDATE accounts SET name = 'other' WHERE id = 'acc_1'").run();
        } catch (error) {
          otherRefused = /locked|busy/i.test((error as Error).message);
        }
        await tx.accounts.update('acc_1', { name: `${before}+a` }, 9);
        return (await tx.accounts.get('acc_1'))!.name;
      });
      expect(name).toBe('A+a');
      // Refused while the batch held the write lock; a real process waits (busy_timeout) and then writes.
      expect(otherRefused).toBe(true);
      other.close();
    } finally {
      await close();
    }
  });
});
