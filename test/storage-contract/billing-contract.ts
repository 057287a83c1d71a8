import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../src/server/storage/ledger-repo.js';
import type { HoldRecord } from '../../src/server/storage/holds-repo.js';
import type { EngineUnderTest } from './engine.js';
import { T0, seedAccount, uid, useStore, wallet } from './fixtures.js';

// Wallets, the append-only ledger and holds (contract §11).

function entry(accountId: string, over: Partial<LedgerEntry>): LedgerEntry {
  return { id: uid('led'), accountId, kind: 'charge', category: 'sms', quantity: 1, amountCents: -1, balanceAfterCents: null, cause: 'usage: sms', ref: null, holdId: null, createdAt: T0, ...over };
}

function hold(accountId: string, over: Partial<HoldRecord> = {}): HoldRecord {
  return { id: uid('hold'), accountId, category: 'sms', amountCents: 3, ref: uid('msg'), status: 'open', createdAt: T0, closedAt: null, ...over };
}

export function billingContract(engine: EngineUnderTest): void {
  describe('wallets', () => {
    const store = useStore(engine);

    it('round-trips every field; one wallet per account; update changes only the fields given', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const w = wallet(a.id);
      await store().write((tx) => tx.wallets.insert(w));
      expect(await store().read((tx) => tx.wallets.get(a.id))).toEqual(w);
      expect(await store().read((tx) => tx.wallets.get(b.id))).toBeUndefined();
      await expect(store().write((tx) => tx.wallets.insert(wallet(a.id)))).rejects.toThrow();
      await store().write((tx) => tx.wallets.update(a.id, { balanceCents: 1500, autoRechargeEnabled: false, lowBalanceArmed: true, cardToken: null, cardLast4: null, spendMonth: T0, spendMonthCents: 500, updatedAt: T0 + 1 }));
      expect(await store().read((tx) => tx.wallets.get(a.id))).toEqual({
        ...w, balanceCents: 1500, autoRechargeEnabled: false, lowBalanceArmed: true, cardToken: null, cardLast4: null, spendMonth: T0, spendMonthCents: 500, updatedAt: T0 + 1,
      });
    });
  });

  describe('ledger', () => {
    const store = useStore(engine);

    it('entries round-trip oldest first, and sum is the balance they moved', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const rows = [
        entry(a.id, { kind: 'credit', category: null, amountCents: 2000, balanceAfterCents: 2000, cause: 'opening balance', quantity: 0 }),
        entry(a.id, { kind: 'hold', amountCents: -3, holdId: 'hold_1', ref: 'msg_1', createdAt: T0 + 1 }),
        entry(a.id, { kind: 'release', amountCents: 3, holdId: 'hold_1', ref: 'msg_1', createdAt: T0 + 2 }),
        entry(a.id, { kind: 'charge', amountCents: -3, quantity: 2, balanceAfterCents: 1997, ref: 'msg_1', createdAt: T0 + 2 }),
        entry(a.id, { kind: 'refund', amountCents: 1, createdAt: T0 + 3 }),
      ];
      await store().write(async (tx) => {
        for (const r of rows) await tx.ledger.append(r);
        await tx.ledger.append(entry(b.id, { amountCents: -50 }));
      });
      await store().read(async (tx) => {
        expect(await tx.ledger.entries(a.id)).toEqual(rows);
        expect(await tx.ledger.sum(a.id)).toBe(1998);
        expect(await tx.ledger.sum(b.id)).toBe(-50);
        expect(await tx.ledger.sum('acc_none')).toBe(0);
      });
    });

    it('usage and chargedSince count charges net of refunds with a category; not holds, releases or credits', async () => {
      const a = await seedAccount(store());
      await store().write(async (tx) => {
        await tx.ledger.append(entry(a.id, { kind: 'credit', category: null, amountCents: 5000 }));
        await tx.ledger.append(entry(a.id, { kind: 'charge', category: 'sms', amountCents: -4, quantity: 2, createdAt: T0 }));
        await tx.ledger.append(entry(a.id, { kind: 'charge', category: 'sms', amountCents: -2, quantity: 1, createdAt: T0 + 10 }));
        await tx.ledger.append(entry(a.id, { kind: 'refund', category: 'sms', amountCents: 2, quantity: 0, createdAt: T0 + 11 }));
        await tx.ledger.append(entry(a.id, { kind: 'charge', category: 'voice', amountCents: -30, quantity: 3, createdAt: T0 + 20 }));
        await tx.ledger.append(entry(a.id, { kind: 'hold', category: 'sms', amountCents: -100, createdAt: T0 + 20 }));
        await tx.ledger.append(entry(a.id, { kind: 'release', category: 'sms', amountCents: 100, createdAt: T0 + 21 }));
        await tx.ledger.append(entry(a.id, { kind: 'charge', category: null, amountCents: -7, createdAt: T0 + 22 }));
        await tx.ledger.append(entry(a.id, { kind: 'charge', category: 'sms', amountCents: -9, createdAt: T0 + 30 }));
      });
      await store().read(async (tx) => {
        const usage = await tx.ledger.usage(a.id, T0, T0 + 30);
        expect([...usage].sort((x, y) => x.category.localeCompare(y.category))).toEqual([
          { category: 'sms', quantity: 3, amountCents: 4 },
          { category: 'voice', quantity: 3, amountCents: 30 },
        ]);
        expect(await tx.ledger.chargedSince(a.id, T0 + 10)).toBe(2 - 2 + 30 + 9);
        expect(await tx.ledger.chargedSince(a.id, T0 + 100)).toBe(0);
      });
    });

    it('hasCharge: a charge of that category for that ref at or after a time', async () => {
      const a = await seedAccount(store());
      await store().write(async (tx) => {
        await tx.ledger.append(entry(a.id, { kind: 'charge', category: 'local_number', ref: 'num_1', createdAt: T0 }));
        await tx.ledger.append(entry(a.id, { kind: 'refund', category: 'tollfree_number', ref: 'num_1', createdAt: T0 }));
      });
      await store().read(async (tx) => {
        expect(await tx.ledger.hasCharge('num_1', 'local_number', T0)).toBe(true);
        expect(await tx.ledger.hasCharge('num_1', 'local_number', T0 + 1)).toBe(false);
        expect(await tx.ledger.hasCharge('num_1', 'tollfree_number', T0)).toBe(false);
        expect(await tx.ledger.hasCharge('num_2', 'local_number', T0)).toBe(false);
      });
    });
  });

  describe('holds', () => {
    const store = useStore(engine);

    it('openFor and openTotal see open holds only; close succeeds exactly once', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const [h1, h2] = [hold(a.id, { amountCents: 3 }), hold(a.id, { amountCents: 5, category: 'mms' })];
      await store().write(async (tx) => {
        await tx.holds.insert(h1);
        await tx.holds.insert(h2);
        await tx.holds.insert(hold(b.id, { amountCents: 100 }));
      });
      await store().read(async (tx) => {
        expect(await tx.holds.openFor(h1.ref!)).toEqual(h1);
        expect(await tx.holds.openTotal(a.id)).toBe(8);
      });
      expect(await store().write((tx) => tx.holds.close(h1.id, 'settled', T0 + 5))).toBe(true);
      expect(await store().write((tx) => tx.holds.close(h1.id, 'released', T0 + 6))).toBe(false);
      expect(await store().write((tx) => tx.holds.close(h1.id, 'settled', T0 + 7))).toBe(false);
      expect(await store().write((tx) => tx.holds.close('hold_missing', 'settled', T0))).toBe(false);
      await store().read(async (tx) => {
        expect(await tx.holds.openFor(h1.ref!)).toBeUndefined();
        expect(await tx.holds.openTotal(a.id)).toBe(5);
        expect(await tx.holds.openTotal('acc_none')).toBe(0);
      });
    });

    it('two writes racing to close one hold: exactly one wins', async () => {
      const a = await seedAccount(store());
      const h = hold(a.id);
      await store().write((tx) => tx.holds.insert(h));
      const results = await Promise.all([
        store().write((tx) => tx.holds.close(h.id, 'settled', T0 + 1)),
        store().write((tx) => tx.holds.close(h.id, 'released', T0 + 1)),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('wallets: concurrent writers', () => {
    const store = useStore(engine);

    // The domain reads a wallet, checks the balance, then writes the new balance with its
    // ledger row. On an engine whose writes run at once, two such writes on the same wallet must not
    // both act on the balance they read: one runs again on the other's result (or fails), so the
    // balance still equals the ledger's sum and no check was bypassed.
    it('two writes that read, check and spend one balance never both spend it: the loser runs again and is refused; balance = ledger sum', async () => {
      const a = await seedAccount(store());
      await store().write(async (tx) => {
        await tx.wallets.insert(wallet(a.id, { balanceCents: 100 }));
        await tx.ledger.append(entry(a.id, { kind: 'credit', category: null, amountCents: 100, balanceAfterCents: 100 }));
      });
      let reads = 0;
      let bothRead!: () => void;
      const secondRead = new Promise<void>((r) => (bothRead = r));
      const spend60 = () =>
        store().write(async (tx) => {
          const w = (await tx.wallets.get(a.id))!;
          const mine = ++reads;
          if (mine === 2) bothRead();
          // The first reader waits until the second has read too: both have seen 100.
          if (engine.concurrentWrites && mine === 1) await secondRead;
          if (w.balanceCents < 60) throw new Error('insufficient balance');
          await tx.wallets.update(a.id, { balanceCents: w.balanceCents - 60, updatedAt: T0 + 1 });
          await tx.ledger.append(entry(a.id, { kind: 'charge', category: 'sms', amountCents: -60, balanceAfterCents: w.balanceCents - 60 }));
        });
      const results = await Promise.allSettled([spend60(), spend60()]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as Error).message).toBe('insufficient balance');
      // Where both read 100, the one refused read again (after the other's commit) to be refused.
      if (engine.concurrentWrites) expect(reads).toBe(3);
      await store().read(async (tx) => {
        expect((await tx.wallets.get(a.id))!.balanceCents).toBe(40);
        expect(await tx.ledger.sum(a.id)).toBe(40);
      });
    });
  });
}
