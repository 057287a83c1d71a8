import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../src/server/storage/keys-repo.js';
import type { ConsoleSessionRecord } from '../../src/server/storage/console-sessions-repo.js';
import type { IdempotencyScope } from '../../src/server/storage/idempotency-repo.js';
import { UniqueConstraintError } from '../../src/server/storage/storage-errors.js';
import { CLOCK_STATE_KEY } from '../../src/server/storage/service-state-repo.js';
import type { EngineUnderTest } from './engine.js';
import { KEYSET_TIMES, T0, account, message, newestFirst, numberRecord, pageAll, seedAccount, uid, useStore } from './fixtures.js';

// Accounts, API keys, idempotency keys, the service's own state and the agency usage counts.

function key(accountId: string, over: Partial<KeyRecord> = {}): KeyRecord {
  return { id: uid('key'), accountId, name: 'ci', mode: 'test', prefix: 'sk_test_ab', hash: uid('hash'), createdAt: T0, lastUsedAt: null, revokedAt: null, ...over };
}

export function accountsContract(engine: EngineUnderTest): void {
  describe('accounts', () => {
    const store = useStore(engine);

    it('round-trips every field (a root, and an agency child with a test mode)', async () => {
      const root = account({ isAgency: true });
      const child = account({ parentId: root.id, isAgency: false, status: 'suspended', mode: 'test', createdAt: T0 + 1, updatedAt: T0 + 2 });
      await store().write(async (tx) => {
        await tx.accounts.insert(root);
        await tx.accounts.insert(child);
      });
      await store().read(async (tx) => {
        expect(await tx.accounts.get(root.id)).toEqual(root);
        expect(await tx.accounts.get(child.id)).toEqual(child);
        expect(await tx.accounts.get('acc_missing')).toBeUndefined();
      });
    });

    it('getChild finds only a direct child of that parent', async () => {
      const [p1, p2] = [account({ isAgency: true }), account({ isAgency: true })];
      const c1 = account({ parentId: p1.id });
      await store().write(async (tx) => {
        for (const a of [p1, p2, c1]) await tx.accounts.insert(a);
      });
      await store().read(async (tx) => {
        expect(await tx.accounts.getChild(p1.id, c1.id)).toEqual(c1);
        expect(await tx.accounts.getChild(p2.id, c1.id)).toBeUndefined();
        expect(await tx.accounts.getChild(p1.id, p1.id)).toBeUndefined();
      });
    });

    it('lists children newest first; the cursor continues with no duplicates or gaps on equal times', async () => {
      const parent = await seedAccount(store(), { isAgency: true });
      const other = await seedAccount(store(), { isAgency: true });
      const children = KEYSET_TIMES.map((t) => account({ parentId: parent.id, createdAt: t, updatedAt: t }));
      await store().write(async (tx) => {
        for (const c of children) await tx.accounts.insert(c);
        await tx.accounts.insert(account({ parentId: other.id }));
      });
      const expected = newestFirst(children, (c) => c.createdAt).map((c) => c.id);
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.accounts.listChildren(parent.id, 3, cursor)));
      expect(paged.map((c) => c.id)).toEqual(expected);
      expect((await store().read((tx) => tx.accounts.allChildren(parent.id))).map((c) => c.id)).toEqual(expected);
    });

    it('update changes only the fields given, and updatedAt', async () => {
      const a = await seedAccount(store());
      await store().write((tx) => tx.accounts.update(a.id, { name: 'Renamed' }, T0 + 100));
      expect(await store().read((tx) => tx.accounts.get(a.id))).toEqual({ ...a, name: 'Renamed', updatedAt: T0 + 100 });
      await store().write((tx) => tx.accounts.update(a.id, { status: 'suspended' }, T0 + 200));
      expect(await store().read((tx) => tx.accounts.get(a.id))).toEqual({ ...a, name: 'Renamed', status: 'suspended', updatedAt: T0 + 200 });
    });

    it('first() is the first root account; all() is every account, oldest first', async () => {
      expect(await store().read((tx) => tx.accounts.first())).toBeUndefined();
      const r1 = account({ isAgency: true, createdAt: T0 });
      const c = account({ parentId: r1.id, createdAt: T0 + 1 });
      const r2 = account({ createdAt: T0 + 2 });
      await store().write(async (tx) => {
        for (const a of [r1, c, r2]) await tx.accounts.insert(a);
      });
      expect(await store().read((tx) => tx.accounts.first())).toEqual(r1);
      expect((await store().read((tx) => tx.accounts.all())).map((a) => a.id)).toEqual([r1.id, c.id, r2.id]);
    });
  });

  describe('keys', () => {
    const store = useStore(engine);

    it('round-trips every field, finds by hash, and scopes get to the account', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const k1 = key(a.id);
      const k2 = key(a.id, { mode: 'live', prefix: 'sk_live_cd', createdAt: T0 + 1, lastUsedAt: T0 + 5, revokedAt: T0 + 9 });
      await store().write(async (tx) => {
        await tx.keys.insert(k1);
        await tx.keys.insert(k2);
      });
      await store().read(async (tx) => {
        expect(await tx.keys.get(a.id, k1.id)).toEqual(k1);
        expect(await tx.keys.get(a.id, k2.id)).toEqual(k2);
        expect(await tx.keys.get(b.id, k1.id)).toBeUndefined();
        expect(await tx.keys.findByHash(k2.hash)).toEqual(k2);
        expect(await tx.keys.findByHash('nope')).toBeUndefined();
        expect((await tx.keys.all()).map((k) => k.id)).toEqual([k1.id, k2.id]);
      });
    });

    it('finds a key with its account by hash, in a read of one statement, and follows a revoke and a suspension at once', async () => {
      const a = await seedAccount(store());
      const k = key(a.id, { mode: 'live', prefix: 'sk_live_ef', lastUsedAt: T0 + 5 });
      await store().write((tx) => tx.keys.insert(k));
      const account = await store().read((tx) => tx.accounts.get(a.id));
      const credential = (hash: string) => store().read((tx) => tx.keys.findWithAccount(hash), { oneStatement: true });
      expect(await credential(k.hash)).toEqual({ key: k, account });
      expect(await credential('nope')).toBeUndefined();
      await store().write((tx) => tx.keys.revoke(k.id, T0 + 20));
      expect((await credential(k.hash))?.key.revokedAt).toBe(T0 + 20);
      await store().write((tx) => tx.accounts.update(a.id, { status: 'suspended' }, T0 + 21));
      expect((await credential(k.hash))?.account).toEqual({ ...account, status: 'suspended', updatedAt: T0 + 21 });
    });

    it('a key hash is unique across accounts: a second insert fails and leaves the first', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const k1 = key(a.id);
      await store().write((tx) => tx.keys.insert(k1));
      await expect(store().write((tx) => tx.keys.insert(key(b.id, { hash: k1.hash })))).rejects.toThrow();
      expect(await store().read((tx) => tx.keys.findByHash(k1.hash))).toEqual(k1);
    });

    it('markUsed and revoke stamp their times; a second revoke keeps the first time; deleteByHash removes', async () => {
      const a = await seedAccount(store());
      const k = key(a.id);
      await store().write(async (tx) => {
        await tx.keys.insert(k);
        await tx.keys.markUsed(k.id, T0 + 10);
        await tx.keys.revoke(k.id, T0 + 20);
        await tx.keys.revoke(k.id, T0 + 30);
      });
      expect(await store().read((tx) => tx.keys.get(a.id, k.id))).toEqual({ ...k, lastUsedAt: T0 + 10, revokedAt: T0 + 20 });
      await store().write((tx) => tx.keys.deleteByHash(k.hash));
      expect(await store().read((tx) => tx.keys.findByHash(k.hash))).toBeUndefined();
    });

    it('markUsed never moves a last use back', async () => {
      const a = await seedAccount(store());
      const k = key(a.id);
      await store().write((tx) => tx.keys.insert(k));
      await store().write((tx) => tx.keys.markUsed(k.id, T0 + 60_000));
      await store().write((tx) => tx.keys.markUsed(k.id, T0 + 10));
      expect((await store().read((tx) => tx.keys.get(a.id, k.id)))?.lastUsedAt).toBe(T0 + 60_000);
    });

    it('lists an account\'s keys newest first across pages with equal times', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const keys = KEYSET_TIMES.map((t) => key(a.id, { createdAt: t }));
      await store().write(async (tx) => {
        for (const k of keys) await tx.keys.insert(k);
        await tx.keys.insert(key(b.id));
      });
      const paged = await pageAll(2, (cursor) => store().read((tx) => tx.keys.list(a.id, 2, cursor)));
      expect(paged.map((k) => k.id)).toEqual(newestFirst(keys, (k) => k.createdAt).map((k) => k.id));
    });
  });

  describe('idempotency', () => {
    const store = useStore(engine);
    const scope = (accountId: string, over: Partial<IdempotencyScope> = {}): IdempotencyScope => ({
      accountId, mode: 'live', method: 'POST', path: '/v1/messages', key: 'k-1', ...over,
    });

    it('begin holds the key in flight; complete records the answer', async () => {
      const a = await seedAccount(store());
      const s = scope(a.id);
      expect(await store().read((tx) => tx.idempotency.get(s))).toBeUndefined();
      await store().write((tx) => tx.idempotency.begin(s, 'hash-1', T0));
      expect(await store().read((tx) => tx.idempotency.get(s))).toEqual({ requestHash: 'hash-1', state: 'in_flight', status: null, body: null, createdAt: T0 });
      await store().write((tx) => tx.idempotency.complete(s, 201, '{"id":"msg_1"}'));
      expect(await store().read((tx) => tx.idempotency.get(s))).toEqual({ requestHash: 'hash-1', state: 'done', status: 201, body: '{"id":"msg_1"}', createdAt: T0 });
    });

    it('the scope is account, mode, method, path and key: a change in any one is another key', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const s = scope(a.id);
      await store().write((tx) => tx.idempotency.record(s, 'h', 200, 'body', T0));
      const others = [scope(b.id), scope(a.id, { mode: 'test' }), scope(a.id, { method: 'PATCH' }), scope(a.id, { path: '/v1/calls' }), scope(a.id, { key: 'k-2' })];
      await store().read(async (tx) => {
        expect((await tx.idempotency.get(s))?.body).toBe('body');
        for (const o of others) expect(await tx.idempotency.get(o)).toBeUndefined();
      });
      // Each of them can hold its own row beside the first.
      await store().write(async (tx) => {
        for (const [i, o] of others.entries()) await tx.idempotency.record(o, `h${i}`, 200, `b${i}`, T0);
      });
      await store().read(async (tx) => {
        expect((await tx.idempotency.get(s))?.body).toBe('body');
        for (const [i, o] of others.entries()) expect((await tx.idempotency.get(o))?.body).toBe(`b${i}`);
      });
    });

    it('record replaces an expired row of the same scope (one row per scope)', async () => {
      const a = await seedAccount(store());
      const s = scope(a.id);
      await store().write((tx) => tx.idempotency.record(s, 'old', 200, 'old body', T0));
      await store().write((tx) => tx.idempotency.record(s, 'new', 201, 'new body', T0 + 90_000_000));
      expect(await store().read((tx) => tx.idempotency.get(s))).toEqual({ requestHash: 'new', state: 'done', status: 201, body: 'new body', createdAt: T0 + 90_000_000 });
      expect(await store().write((tx) => tx.idempotency.purgeOlderThan(T0 + 90_000_000))).toBe(0);
    });

    it('abandon and clearInFlight drop in-flight keys and keep recorded answers', async () => {
      const a = await seedAccount(store());
      const [s1, s2, s3] = [scope(a.id, { key: '1' }), scope(a.id, { key: '2' }), scope(a.id, { key: '3' })];
      await store().write(async (tx) => {
        await tx.idempotency.begin(s1, 'h1', T0);
        await tx.idempotency.begin(s2, 'h2', T0);
        await tx.idempotency.record(s3, 'h3', 200, 'done', T0);
      });
      await store().write(async (tx) => {
        await tx.idempotency.abandon(s1);
        await tx.idempotency.abandon(s3);
      });
      await store().read(async (tx) => {
        expect(await tx.idempotency.get(s1)).toBeUndefined();
        expect((await tx.idempotency.get(s2))?.state).toBe('in_flight');
        expect((await tx.idempotency.get(s3))?.state).toBe('done');
      });
      await store().write((tx) => tx.idempotency.clearInFlight());
      await store().read(async (tx) => {
        expect(await tx.idempotency.get(s2)).toBeUndefined();
        expect((await tx.idempotency.get(s3))?.body).toBe('done');
      });
    });

    it('claim: a free key comes back undefined and, with the answer recorded in the same write, is found answered; a write rolled back holds nothing', async () => {
      const a = await seedAccount(store());
      const s = scope(a.id);
      await expect(
        store().write(async (tx) => {
          expect(await tx.idempotency.claim(s, 'h', T0)).toBeUndefined();
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await store().read((tx) => tx.idempotency.get(s))).toBeUndefined();
      await store().write(async (tx) => {
        expect(await tx.idempotency.claim(s, 'h', T0)).toBeUndefined();
        await tx.idempotency.record(s, 'h', 201, '{"id":"msg_1"}', T0);
      });
      const answered = { requestHash: 'h', state: 'done', status: 201, body: '{"id":"msg_1"}', createdAt: T0 };
      expect(await store().write((tx) => tx.idempotency.claim(s, 'other', T0 + 1))).toEqual(answered);
      // A claim that finds a row changes nothing.
      expect(await store().read((tx) => tx.idempotency.get(s))).toEqual(answered);
    });

    it('keeps when an answer was written to the microsecond (record, recordFirst); a key held again forgets it', async () => {
      const a = await seedAccount(store());
      const [first, second] = [scope(a.id, { key: 'answered-1' }), scope(a.id, { key: 'answered-2' })];
      const at = 1_796_332_705_748.655;
      await store().write(async (tx) => {
        await tx.idempotency.recordFirst(first, 'h', 201, '{}', T0, at);
        await tx.idempotency.record(second, 'h', 201, '{}', T0, at + 0.001);
      });
      expect((await store().read((tx) => tx.idempotency.get(first)))?.answeredAt).toBeCloseTo(at, 3);
      expect((await store().read((tx) => tx.idempotency.get(second)))?.answeredAt).toBeCloseTo(at + 0.001, 3);
      await store().write((tx) => tx.idempotency.begin(second, 'h2', T0 + 90_000_000));
      expect((await store().read((tx) => tx.idempotency.get(second)))?.answeredAt).toBeUndefined();
    });

    it('recordFirst records a key no row holds; a row of the key, answered, in flight or expired, fails it and its write, nothing kept', async () => {
      const a = await seedAccount(store());
      const s = scope(a.id);
      await store().write((tx) => tx.idempotency.recordFirst(s, 'h', 201, '{"id":"msg_1"}', T0));
      const answered = { requestHash: 'h', state: 'done', status: 201, body: '{"id":"msg_1"}', createdAt: T0 };
      expect(await store().read((tx) => tx.idempotency.get(s))).toEqual(answered);
      const inFlight = scope(a.id, { key: 'k-in-flight' });
      await store().write((tx) => tx.idempotency.begin(inFlight, 'h', T0));
      // The expired row (past 24 h) too: only `record`, after a claim found it expired, replaces it.
      for (const [held, at] of [[s, T0 + 1], [inFlight, T0 + 1], [s, T0 + 90_000_000]] as const) {
        const before = await store().read((tx) => tx.idempotency.get(held));
        await expect(
          store().write(async (tx) => {
            await tx.idempotency.record(scope(a.id, { key: `beside-${at}` }), 'x', 200, 'beside', at);
            await tx.idempotency.recordFirst(held, 'other', 200, 'second', at);
          }),
        ).rejects.toBeInstanceOf(UniqueConstraintError);
        expect(await store().read((tx) => tx.idempotency.get(held))).toEqual(before);
        expect(await store().read((tx) => tx.idempotency.get(scope(a.id, { key: `beside-${at}` })))).toBeUndefined();
      }
    });

    // Concurrent sends each claim their own key; on an engine whose writes run at once they
    // must not conflict over the index (a read of an absent key locks the gap others insert into, and
    // SERIALIZABLE then ran every other such write twice).
    it('two writes claiming different keys at once both commit at their first pass', async () => {
      const a = await seedAccount(store());
      let passes = 0;
      let claimed = 0;
      let bothClaimed!: () => void;
      const both = new Promise<void>((r) => (bothClaimed = r));
      const send = (key: string) =>
        store().write(async (tx) => {
          passes++;
          expect(await tx.idempotency.claim(scope(a.id, { key }), key, T0)).toBeUndefined();
          if (++claimed === 2) bothClaimed();
          // Each holds its claim until the other has claimed too.
          if (engine.concurrentWrites) await both;
          await tx.idempotency.record(scope(a.id, { key }), key, 201, key, T0);
        });
      await Promise.all([send('k-a'), send('k-b')]);
      expect(passes).toBe(2);
    });

    it("a duplicate claimed while the first write is open finds the first's answer once it has committed", async () => {
      const a = await seedAccount(store());
      const s = scope(a.id);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let firstClaimed!: () => void;
      const claimedOnce = new Promise<void>((r) => (firstClaimed = r));
      const first = store().write(async (tx) => {
        expect(await tx.idempotency.claim(s, 'h', T0)).toBeUndefined();
        firstClaimed();
        if (engine.concurrentWrites) await gate;
        await tx.idempotency.record(s, 'h', 201, 'first', T0);
      });
      await claimedOnce;
      const second = store().write(async (tx) => await tx.idempotency.claim(s, 'h', T0));
      release();
      await first;
      expect((await second)?.body).toBe('first');
    });

    it('purgeOlderThan deletes rows created before the cutoff and counts them', async () => {
      const a = await seedAccount(store());
      await store().write(async (tx) => {
        await tx.idempotency.record(scope(a.id, { key: 'old1' }), 'h', 200, 'b', T0 - 2);
        await tx.idempotency.begin(scope(a.id, { key: 'old2' }), 'h', T0 - 1);
        await tx.idempotency.record(scope(a.id, { key: 'edge' }), 'h', 200, 'b', T0);
      });
      expect(await store().write((tx) => tx.idempotency.purgeOlderThan(T0))).toBe(2);
      await store().read(async (tx) => {
        expect(await tx.idempotency.get(scope(a.id, { key: 'old1' }))).toBeUndefined();
        expect(await tx.idempotency.get(scope(a.id, { key: 'edge' }))).toBeDefined();
      });
    });
  });

  describe('serviceState', () => {
    const store = useStore(engine);

    it('keeps a JSON value per key; set replaces it', async () => {
      expect(await store().read((tx) => tx.serviceState.get(CLOCK_STATE_KEY))).toBeUndefined();
      const clock = { nowMs: T0 + 123, frozen: true, offsets: [1, -2.5], note: null };
      await store().write((tx) => tx.serviceState.set(CLOCK_STATE_KEY, clock));
      expect(await store().read((tx) => tx.serviceState.get(CLOCK_STATE_KEY))).toEqual(clock);
      await store().write(async (tx) => {
        await tx.serviceState.set(CLOCK_STATE_KEY, { nowMs: T0 + 456 });
        await tx.serviceState.set('other', 'text');
      });
      await store().read(async (tx) => {
        expect(await tx.serviceState.get(CLOCK_STATE_KEY)).toEqual({ nowMs: T0 + 456 });
        expect(await tx.serviceState.get('other')).toBe('text');
      });
    });
  });

  describe('usageStats', () => {
    const store = useStore(engine);

    it('counts the account\'s owned (not released) numbers and its messages since a time', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      await store().write(async (tx) => {
        await tx.numbers.insert(numberRecord(a.id));
        await tx.numbers.insert(numberRecord(a.id, { status: 'pending' }));
        await tx.numbers.insert(numberRecord(a.id, { status: 'released', releasedAt: T0 }));
        await tx.numbers.insert(numberRecord(b.id));
        for (const t of [T0 - 1, T0, T0 + 1]) await tx.messages.insert(message(a.id, { createdAt: t }));
        await tx.messages.insert(message(b.id, { createdAt: T0 + 1 }));
      });
      await store().read(async (tx) => {
        expect(await tx.usageStats.ownedNumbers(a.id)).toBe(2);
        expect(await tx.usageStats.messagesSince(a.id, T0)).toBe(2);
        expect(await tx.usageStats.messagesSince(b.id, T0)).toBe(1);
      });
    });
  });

  describe('console sessions', () => {
    const store = useStore(engine);
    const row = (accountId: string, keyId: string, over: Partial<ConsoleSessionRecord> = {}): ConsoleSessionRecord => ({
      hash: uid('hash'), kind: 'session', keyId, accountId, subaccountId: null, csrf: uid('csrf'), createdAt: T0, expiresAt: T0 + 1000, ...over,
    });

    it('round-trips a row, switches its sub-account, deletes once, and removes the expired ones', async () => {
      const a = await seedAccount(store(), { isAgency: true });
      const child = await seedAccount(store(), { parentId: a.id });
      const k = key(a.id);
      const live = row(a.id, k.id, { kind: 'link', expiresAt: T0 + 60_000 });
      const old = row(a.id, k.id, { expiresAt: T0 });
      await store().write(async (tx) => {
        await tx.keys.insert(k);
        await tx.consoleSessions.insert(live);
        await tx.consoleSessions.insert(old);
        await tx.consoleSessions.setSubaccount(live.hash, child.id);
      });
      await store().read(async (tx) => {
        expect(await tx.consoleSessions.get(live.hash)).toEqual({ ...live, subaccountId: child.id });
        expect(await tx.consoleSessions.get('missing')).toBeUndefined();
      });
      await store().write(async (tx) => {
        await tx.consoleSessions.deleteExpired(T0);
        expect(await tx.consoleSessions.get(old.hash)).toBeUndefined();
        expect(await tx.consoleSessions.delete(live.hash)).toBe(true);
        expect(await tx.consoleSessions.delete(live.hash)).toBe(false);
      });
    });

    it('removes the sessions of a key that is removed (a bootstrap key put back after a snapshot load)', async () => {
      const a = await seedAccount(store());
      const k = key(a.id);
      const s = row(a.id, k.id);
      await store().write(async (tx) => {
        await tx.keys.insert(k);
        await tx.consoleSessions.insert(s);
      });
      await store().write(async (tx) => await tx.keys.deleteByHash(k.hash));
      await store().read(async (tx) => {
        expect(await tx.keys.findByHash(k.hash)).toBeUndefined();
        expect(await tx.consoleSessions.get(s.hash)).toBeUndefined();
      });
    });
  });
}
