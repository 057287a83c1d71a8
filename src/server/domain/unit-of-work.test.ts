import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { openDatabase } from '../storage/sqlite/database.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import type { Repositories, Store, Transaction } from '../storage/store.js';
import { EventStore } from './events/store.js';
import { domainUnitOfWork } from './unit-of-work.js';
import type { DomainDeps } from './deps.js';

/**
 * A store that runs every write's function twice, the first pass rolled back: what the PostgreSQL
 * engine does to a write that lost a serialization race.
 */
class RunsEachWriteTwice implements Store {
  constructor(private readonly inner: SqliteStore) {}
  get peers() {
    return this.inner.peers;
  }
  get notices() {
    return this.inner.notices;
  }
  readonly readsAreRoundTrips = false;
  databaseReachable = () => true;
  otherWritersSeen = () => this.inner.otherWritersSeen();
  mediaStore = (files: { greetings: Iterable<string> }) => this.inner.mediaStore(files);
  async write<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const lost = new Error('could not serialize access (simulated)');
    await this.inner
      .write(async (tx) => {
        await fn(tx);
        throw lost;
      })
      .catch((err: unknown) => {
        if (err !== lost) throw err;
      });
    return this.inner.write(fn);
  }
  read<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.inner.read(fn);
  }
  assertNoTransaction(what: string): void {
    this.inner.assertNoTransaction(what);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe('unit of work under an engine that runs a write again', () => {
  it('does only the outside acts the committed pass called for, never those of a rolled-back pass', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const store = new RunsEachWriteTwice(new SqliteStore(openDatabase(':memory:'), { guardOutsideCalls: true }));
    const deps = { clock, events: new EventStore(clock), scheduler: { in: () => ({}) } } as unknown as DomainDeps;
    const uow = domainUnitOfWork(store, () => deps);
    const acted: string[] = [];
    let pass = 0;
    const result = await uow.write(async (tx) => {
      pass++;
      // The first pass saw a state that asked for an act (a balance crossing its threshold); the pass
      // that commits did not.
      if (pass === 1) tx.thenOutside('recharge', async () => void acted.push('from the rolled-back pass'));
      return pass;
    });
    expect(result).toBe(2);
    expect(acted).toEqual([]);
    await store.close();
  });
});
