import { describe, expect, it } from 'vitest';
import { UniqueConstraintError } from '../../src/server/storage/storage-errors.js';
import type { EngineUnderTest } from './engine.js';
import { T0, account, message, numberRecord, seedAccount, uid, useStore } from './fixtures.js';

// The Store and Transaction rules (storage/store.ts): a write commits atomically or not at all, a
// savepoint rolls back alone, a read sees only committed data, afterCommit hooks run only on commit.

export function storeContract(engine: EngineUnderTest): void {
  describe('store: transactions', () => {
    const store = useStore(engine);

    it('a duplicate unique key is a UniqueConstraintError naming the table, never the engine\'s own error; the write rolls back', async () => {
      const a = await seedAccount(store());
      const m = message(a.id);
      await store().write((tx) => tx.messages.insert(m));
      const other = account();
      const err = await store()
        .write(async (tx) => {
          await tx.accounts.insert(other);
          await tx.messages.insert({ ...m, body: 'the same id again' });
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UniqueConstraintError);
      expect((err as UniqueConstraintError).table).toBe('messages');
      expect(await store().read((tx) => tx.accounts.get(other.id))).toBeUndefined();
      // Inside a savepoint too: caught there, the outer write goes on and commits.
      const caught = await store().write(async (tx) => {
        await tx.accounts.insert(other);
        return await tx.savepoint((t) => t.messages.insert(m)).catch((e: unknown) => e);
      });
      expect(caught).toBeInstanceOf(UniqueConstraintError);
      expect(await store().read((tx) => tx.accounts.get(other.id))).toEqual(other);
    });

    it('a write answers what its function returned, and a later read sees what it wrote', async () => {
      const a = account();
      expect(await store().write(async (tx) => (await tx.accounts.insert(a), 'done'))).toBe('done');
      expect(await store().read((tx) => tx.accounts.get(a.id))).toEqual(a);
    });

    it('a write that throws rejects with its error and rolls back every one of its writes', async () => {
      const a = account();
      const boom = new Error('boom');
      await expect(
        store().write(async (tx) => {
          await tx.accounts.insert(a);
          await tx.serviceState.set('k', 1);
          await tx.jobs.insert(uid('job'), 'kind', T0, {}, T0);
          throw boom;
        }),
      ).rejects.toBe(boom);
      await store().read(async (tx) => {
        expect(await tx.accounts.get(a.id)).toBeUndefined();
        expect(await tx.serviceState.get('k')).toBeUndefined();
        expect(await tx.jobs.countByKind('kind')).toBe(0);
      });
    });

    it('writes asked for together commit or roll back each on its own', async () => {
      const [a, b, c] = [account(), account(), account()];
      const results = await Promise.allSettled([
        store().write((tx) => tx.accounts.insert(a)),
        store().write(async (tx) => {
          await tx.accounts.insert(b);
          throw new Error('b fails');
        }),
        store().write((tx) => tx.accounts.insert(c)),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      await store().read(async (tx) => {
        expect(await tx.accounts.get(a.id)).toEqual(a);
        expect(await tx.accounts.get(b.id)).toBeUndefined();
        expect(await tx.accounts.get(c.id)).toEqual(c);
      });
    });

    it('a savepoint that throws rolls back its own writes only; the write goes on and commits', async () => {
      const [a, b, c] = [account(), account(), account()];
      await store().write(async (tx) => {
        await tx.accounts.insert(a);
        await expect(
          tx.savepoint(async (inner) => {
            await inner.accounts.insert(b);
            throw new Error('inner');
          }),
        ).rejects.toThrow('inner');
        // Inside the same transaction the rolled-back row is gone already.
        expect(await tx.accounts.get(b.id)).toBeUndefined();
        await tx.accounts.insert(c);
      });
      const all = await store().read((tx) => tx.accounts.all());
      expect(all.map((x) => x.id)).toEqual([a.id, c.id]);
    });

    it('a unique violation inside a savepoint fails that savepoint only: the write goes on, reads and commits', async () => {
      // PostgreSQL aborts a whole transaction on a failed statement unless a savepoint catches it.
      const a = await seedAccount(store());
      const first = numberRecord(a.id);
      const b = account();
      await store().write((tx) => tx.numbers.insert(first));
      await store().write(async (tx) => {
        await expect(tx.savepoint((inner) => inner.numbers.insert(numberRecord(a.id, { phoneNumber: first.phoneNumber })))).rejects.toBeInstanceOf(
          UniqueConstraintError,
        );
        expect(await tx.numbers.getById(first.id)).toEqual(first);
        await tx.accounts.insert(b);
      });
      expect(await store().read((tx) => tx.accounts.get(b.id))).toEqual(b);
    });

    it('a unique violation the write catches itself leaves the transaction usable (it commits its other rows)', async () => {
      const a = await seedAccount(store());
      const first = numberRecord(a.id);
      const b = account();
      await store().write((tx) => tx.numbers.insert(first));
      await store().write(async (tx) => {
        await expect(tx.numbers.insert(numberRecord(a.id, { phoneNumber: first.phoneNumber }))).rejects.toBeInstanceOf(UniqueConstraintError);
        await tx.accounts.insert(b);
      });
      expect(await store().read((tx) => tx.accounts.get(b.id))).toEqual(b);
    });

    it('a savepoint that succeeded is still rolled back when its write throws', async () => {
      const a = account();
      await expect(
        store().write(async (tx) => {
          await tx.savepoint((inner) => inner.accounts.insert(a));
          throw new Error('outer');
        }),
      ).rejects.toThrow('outer');
      expect(await store().read((tx) => tx.accounts.get(a.id))).toBeUndefined();
    });

    it('nested writes of one transaction run one at a time, in the order they were asked for', async () => {
      const order: string[] = [];
      await store().write(async (tx) => {
        await Promise.all([
          tx.savepoint(async (inner) => {
            order.push('first:start');
            await new Promise((r) => setImmediate(r));
            await inner.jobs.insert('job-first', 'nested', T0, null, T0);
            order.push('first:end');
          }),
          tx.savepoint(async (inner) => {
            order.push('second:start');
            await inner.jobs.insert('job-second', 'nested', T0, null, T0);
            order.push('second:end');
          }),
        ]);
      });
      expect(order).toEqual(['first:start', 'first:end', 'second:start', 'second:end']);
      const due = await store().read((tx) => tx.jobs.due(T0, 10));
      expect(due.map((j) => j.id)).toEqual(['job-first', 'job-second']);
    });

    it('a read never sees the rows of a write that has not committed (and then rolls back)', async () => {
      const a = account();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started!: () => void;
      const inside = new Promise<void>((r) => (started = r));
      const writing = store().write(async (tx) => {
        await tx.accounts.insert(a);
        started();
        await gate;
        throw new Error('rolled back');
      });
      await inside;
      const reading = store().read((tx) => tx.accounts.get(a.id));
      release();
      await expect(writing).rejects.toThrow('rolled back');
      expect(await reading).toBeUndefined();
    });

    it('code under a read may read again and write (a read is no write transaction); the write commits', async () => {
      const a = account();
      const seen = await store().read(async () => {
        await store().write((tx) => tx.accounts.insert(a));
        return await store().read((tx) => tx.accounts.get(a.id));
      });
      expect(seen).toEqual(a);
    });

    it('afterCommit hooks run once, after the commit (a read they start sees the rows), before the write settles', async () => {
      const a = account();
      const calls: string[] = [];
      let seen: Promise<unknown> | undefined;
      await store().write(async (tx) => {
        await tx.accounts.insert(a);
        tx.afterCommit(() => {
          calls.push('hook');
          seen = store().read((r) => r.accounts.get(a.id));
        });
        await new Promise((r) => setImmediate(r));
        calls.push('body done');
      });
      expect(calls).toEqual(['body done', 'hook']);
      expect(await seen).toEqual(a);
    });

    it('afterCommit hooks of a write that throws, or of a savepoint that rolls back, never run', async () => {
      const ran: string[] = [];
      await expect(
        store().write(async (tx) => {
          tx.afterCommit(() => ran.push('failed write'));
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      await store().write(async (tx) => {
        tx.afterCommit(() => ran.push('outer'));
        await tx.savepoint(async (inner) => inner.afterCommit(() => ran.push('kept savepoint')));
        await tx
          .savepoint(async (inner) => {
            inner.afterCommit(() => ran.push('rolled-back savepoint'));
            throw new Error('inner');
          })
          .catch(() => undefined);
      });
      await new Promise((r) => setImmediate(r));
      expect(ran.sort()).toEqual(['kept savepoint', 'outer']);
    });

    it('a write of many rows commits them all (no silent batch limit)', async () => {
      const a = await seedAccount(store());
      await store().write(async (tx) => {
        for (let i = 0; i < 600; i++) await tx.jobs.insert(`bulk-${i}`, 'bulk', T0 + i, { i }, T0);
      });
      await Promise.all(Array.from({ length: 600 }, (_, i) => store().write((tx) => tx.serviceState.set(`${a.id}-${i}`, i))));
      await store().read(async (tx) => {
        expect(await tx.jobs.countByKind('bulk')).toBe(600);
        expect(await tx.serviceState.get(`${a.id}-599`)).toBe(599);
      });
    });
  });
}
