import { describe, expect, it } from 'vitest';
import { UniqueConstraintError } from '../../src/server/storage/storage-errors.js';
import type { OptOutRecord } from '../../src/server/storage/opt-outs-repo.js';
import type { LeadRecord } from '../../src/server/storage/leads-repo.js';
import type { EngineUnderTest } from './engine.js';
import { KEYSET_TIMES, T0, brand, campaign, message, newestFirst, numberRecord, pageAll, port, seedAccount, uid, useStore } from './fixtures.js';

// Numbers, messages and conversations, 10DLC brands and campaigns, opt-outs, leads, ports.

function optOut(accountId: string, over: Partial<OptOutRecord> = {}): OptOutRecord {
  return { id: uid('opt'), accountId, numberId: null, from: '+14155550100', phoneNumber: '+14155550199', keyword: 'STOP', status: 'active', createdAt: T0, liftedAt: null, liftedKeyword: null, ...over };
}

export function messagingContract(engine: EngineUnderTest): void {
  describe('numbers', () => {
    const store = useStore(engine);

    it('round-trips every field, with values and with nulls; get is scoped, getById is not', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const full = numberRecord(a.id);
      const bare = numberRecord(a.id, {
        type: 'tollfree', capabilities: { sms: false, mms: true, voice: false }, locality: null, region: null, label: null,
        callerIdName: null, callerIdStatus: 'off', callerIdRequestedAt: null, emergencyEnabled: false, emergencyAddress: null,
        emergencyStatus: 'off', emergencyRequestedAt: null, tfvStatus: 'rejected', tfvRejectionReason: 'bad volume', tfvSubmission: null,
        tfvSubmittedAt: null, mode: 'live',
      });
      await store().write(async (tx) => {
        await tx.numbers.insert(full);
        await tx.numbers.insert(bare);
      });
      await store().read(async (tx) => {
        expect(await tx.numbers.get(a.id, full.id)).toEqual(full);
        expect(await tx.numbers.get(a.id, bare.id)).toEqual(bare);
        expect(await tx.numbers.get(b.id, full.id)).toBeUndefined();
        expect(await tx.numbers.getById(full.id)).toEqual(full);
      });
    });

    it('an owned phone number is unique across accounts (UniqueConstraintError); a released one frees it', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const n = numberRecord(a.id);
      await store().write((tx) => tx.numbers.insert(n));
      expect(await store().read((tx) => tx.numbers.isOwned(n.phoneNumber))).toBe(true);
      await expect(store().write((tx) => tx.numbers.insert(numberRecord(b.id, { phoneNumber: n.phoneNumber })))).rejects.toBeInstanceOf(UniqueConstraintError);
      await store().write((tx) => tx.numbers.save({ ...n, status: 'released', releasedAt: T0 + 50, updatedAt: T0 + 50 }));
      expect(await store().read((tx) => tx.numbers.isOwned(n.phoneNumber))).toBe(false);
      const again = numberRecord(b.id, { phoneNumber: n.phoneNumber, createdAt: T0 + 60 });
      await store().write((tx) => tx.numbers.insert(again));
      expect(await store().read((tx) => tx.numbers.isOwned(n.phoneNumber))).toBe(true);
    });

    it('a refused insert in a savepoint rolls back alone: the write goes on and commits', async () => {
      const a = await seedAccount(store());
      const n = numberRecord(a.id);
      const later = numberRecord(a.id);
      await store().write(async (tx) => {
        await tx.numbers.insert(n);
        await expect(tx.savepoint((inner) => inner.numbers.insert(numberRecord(a.id, { phoneNumber: n.phoneNumber })))).rejects.toBeInstanceOf(UniqueConstraintError);
        await tx.numbers.insert(later);
      });
      expect(await store().read((tx) => tx.numbers.countOwned(a.id))).toBe(2);
    });

    it('findByPhone answers the owned record, else the latest released one', async () => {
      const a = await seedAccount(store());
      const phone = '+14155559876';
      const r1 = numberRecord(a.id, { phoneNumber: phone, status: 'released', releasedAt: T0 + 1 });
      const r2 = numberRecord(a.id, { phoneNumber: phone, status: 'released', releasedAt: T0 + 2 });
      await store().write(async (tx) => {
        await tx.numbers.insert(r1);
        await tx.numbers.insert(r2);
      });
      expect((await store().read((tx) => tx.numbers.findByPhone(a.id, phone)))?.id).toBe(r2.id);
      const owned = numberRecord(a.id, { phoneNumber: phone });
      await store().write((tx) => tx.numbers.insert(owned));
      expect((await store().read((tx) => tx.numbers.findByPhone(a.id, phone)))?.id).toBe(owned.id);
      expect(await store().read((tx) => tx.numbers.findByPhone(a.id, '+10000000000'))).toBeUndefined();
    });

    // An engine may hold numbers by phone between transactions (SQLite does, sqlite/held-reads.ts): what it
    // answers must still be what is stored, after a save, after a rolled-back save, and whatever a
    // caller did to the record it was given.
    it('findByPhone answers what is stored: after a save, not after a rolled-back one, whatever a caller changed', async () => {
      const a = await seedAccount(store());
      const n = numberRecord(a.id, { phoneNumber: '+14155559877' });
      await store().write((tx) => tx.numbers.insert(n));
      const read = () => store().read((tx) => tx.numbers.findByPhone(a.id, n.phoneNumber));
      const got = (await read())!;
      got.capabilities.sms = false;
      got.label = 'changed by a caller';
      got.emergencyAddress!.city = 'Elsewhere';
      expect(await read()).toEqual(n);
      await store().write((tx) => tx.numbers.save({ ...n, status: 'idle', label: 'saved' }));
      expect(await read()).toMatchObject({ status: 'idle', label: 'saved' });
      await expect(
        store().write(async (tx) => {
          await tx.numbers.save({ ...n, status: 'released', releasedAt: T0 + 5 });
          expect((await tx.numbers.findByPhone(a.id, n.phoneNumber))?.status).toBe('released');
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await read()).toMatchObject({ status: 'idle', label: 'saved' });
    });

    it('save writes every mutable field', async () => {
      const a = await seedAccount(store());
      const b = brand(a.id);
      const c = campaign(a.id, b.id);
      const n = numberRecord(a.id);
      await store().write(async (tx) => {
        await tx.brands.insert(b);
        await tx.campaigns.insert(c);
        await tx.numbers.insert(n);
      });
      const changed = {
        ...n, capabilities: { sms: false, mms: true, voice: false }, locality: null, region: 'NY', label: null, status: 'idle' as const,
        campaignId: c.id, callerIdName: null, callerIdStatus: 'failed' as const, callerIdRequestedAt: null, emergencyEnabled: false,
        emergencyAddress: null, emergencyStatus: 'off' as const, emergencyRequestedAt: null, tfvStatus: 'verified' as const,
        tfvRejectionReason: 'x', tfvSubmission: null, tfvSubmittedAt: null, releasedAt: null, updatedAt: T0 + 99,
      };
      await store().write((tx) => tx.numbers.save(changed));
      expect(await store().read((tx) => tx.numbers.getById(n.id))).toEqual(changed);
    });

    it('lists newest first across pages; released numbers only when asked; type and campaign filters', async () => {
      const a = await seedAccount(store());
      const b = brand(a.id);
      const c = campaign(a.id, b.id);
      const nums = KEYSET_TIMES.map((t, i) => numberRecord(a.id, { createdAt: t, type: i % 2 ? 'tollfree' : 'local' }));
      const released = numberRecord(a.id, { status: 'released', releasedAt: T0 });
      await store().write(async (tx) => {
        await tx.brands.insert(b);
        await tx.campaigns.insert(c);
        for (const n of nums) await tx.numbers.insert(n);
        await tx.numbers.insert(released);
        await tx.numbers.save({ ...nums[0]!, campaignId: c.id });
      });
      const all = await pageAll(3, (cursor) => store().read((tx) => tx.numbers.list(a.id, {}, 3, cursor)));
      expect(all.map((n) => n.id)).toEqual(newestFirst(nums, (n) => n.createdAt).map((n) => n.id));
      await store().read(async (tx) => {
        expect((await tx.numbers.list(a.id, { status: 'released' }, 10)).data.map((n) => n.id)).toEqual([released.id]);
        expect((await tx.numbers.list(a.id, { type: 'tollfree' }, 10)).data.every((n) => n.type === 'tollfree')).toBe(true);
        expect((await tx.numbers.list(a.id, { type: 'tollfree' }, 10)).data).toHaveLength(4);
        expect((await tx.numbers.list(a.id, { campaignId: c.id }, 10)).data.map((n) => n.id)).toEqual([nums[0]!.id]);
        expect(await tx.numbers.countOwned(a.id)).toBe(nums.length);
      });
    });
  });

  describe('messages', () => {
    const store = useStore(engine);

    it('round-trips every field (media JSON and null, booleans); get is scoped, getById is not', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const n = numberRecord(a.id);
      const m1 = message(a.id, { numberId: n.id });
      const m2 = message(a.id, { direction: 'inbound', from: '+14155550199', to: n.phoneNumber, status: 'received', channel: 'sms', media: null, segments: 1, reason: 'none', test: false, providerMessageId: 'prov-1', createdAt: T0 + 1, updatedAt: T0 + 2 });
      await store().write(async (tx) => {
        await tx.numbers.insert(n);
        await tx.messages.insert(m1);
        await tx.messages.insert(m2);
      });
      await store().read(async (tx) => {
        expect(await tx.messages.get(a.id, m1.id)).toEqual(m1);
        expect(await tx.messages.get(a.id, m2.id)).toEqual(m2);
        expect(await tx.messages.get(b.id, m1.id)).toBeUndefined();
        expect(await tx.messages.getById(m2.id)).toEqual(m2);
        expect(await tx.messages.count(a.id)).toBe(2);
        expect(await tx.messages.count(b.id)).toBe(0);
      });
    });

    it('setStatus and setProviderMessageId change those fields and updatedAt only', async () => {
      const a = await seedAccount(store());
      const m = message(a.id);
      await store().write(async (tx) => {
        await tx.messages.insert(m);
        await tx.messages.setStatus(m.id, 'failed', 'carrier_rejected', T0 + 10);
      });
      expect(await store().read((tx) => tx.messages.getById(m.id))).toEqual({ ...m, status: 'failed', reason: 'carrier_rejected', updatedAt: T0 + 10 });
      await store().write((tx) => tx.messages.setProviderMessageId(m.id, 'SM123', T0 + 20));
      expect(await store().read((tx) => tx.messages.getById(m.id))).toEqual({ ...m, status: 'failed', reason: 'carrier_rejected', providerMessageId: 'SM123', updatedAt: T0 + 20 });
    });

    it('lists newest first; the cursor continues past rows inserted after the first page, with no duplicates', async () => {
      const a = await seedAccount(store());
      const msgs = KEYSET_TIMES.map((t) => message(a.id, { createdAt: t }));
      await store().write(async (tx) => {
        for (const m of msgs) await tx.messages.insert(m);
      });
      const first = await store().read((tx) => tx.messages.list(a.id, {}, 3));
      await store().write((tx) => tx.messages.insert(message(a.id, { createdAt: T0 + 5 })));
      const rest = await pageAll(3, (cursor) => store().read((tx) => tx.messages.list(a.id, {}, 3, cursor ?? first.nextCursor!)));
      expect([...first.data, ...rest].map((m) => m.id)).toEqual(newestFirst(msgs, (m) => m.createdAt).map((m) => m.id));
    });

    it('filters by direction, from, to and status', async () => {
      const a = await seedAccount(store());
      const out = message(a.id, { status: 'sent' });
      const inb = message(a.id, { direction: 'inbound', from: '+14155550777', to: '+14155550100', counterparty: '+14155550777', status: 'received' });
      await store().write(async (tx) => {
        await tx.messages.insert(out);
        await tx.messages.insert(inb);
      });
      const ids = async (f: Parameters<import('../../src/server/storage/messages-repo.js').MessagesRepo['list']>[1]) =>
        (await store().read((tx) => tx.messages.list(a.id, f, 10))).data.map((m) => m.id);
      expect(await ids({ direction: 'inbound' })).toEqual([inb.id]);
      expect(await ids({ from: '+14155550777' })).toEqual([inb.id]);
      expect(await ids({ to: out.to })).toEqual([out.id]);
      expect(await ids({ status: 'sent' })).toEqual([out.id]);
    });

    it('thread is the latest messages with one counterparty, oldest first', async () => {
      const a = await seedAccount(store());
      const peer = '+14155550111';
      const msgs = [T0 + 3, T0 + 1, T0 + 2, T0 + 2].map((t) => message(a.id, { to: peer, counterparty: peer, createdAt: t }));
      await store().write(async (tx) => {
        for (const m of msgs) await tx.messages.insert(m);
        await tx.messages.insert(message(a.id, { createdAt: T0 + 9 }));
      });
      const thread = await store().read((tx) => tx.messages.thread(a.id, peer, 3));
      expect(thread.map((m) => m.id)).toEqual([msgs[2]!.id, msgs[3]!.id, msgs[0]!.id]);
    });

    it('conversations: one per counterparty, its latest message (an older one inserted later does not replace it), paged newest first', async () => {
      const a = await seedAccount(store());
      const peers = ['+14155550001', '+14155550002', '+14155550003', '+14155550004'];
      const latest = new Map<string, string>();
      await store().write(async (tx) => {
        for (const p of peers) {
          const m = message(a.id, { to: p, counterparty: p, createdAt: T0 });
          await tx.messages.insert(m);
          latest.set(p, m.id);
        }
        // Older than the conversation's last message: inserted later, but not the latest.
        await tx.messages.insert(message(a.id, { to: peers[0], counterparty: peers[0]!, createdAt: T0 - 100 }));
      });
      const convs = await pageAll(1, (cursor) => store().read((tx) => tx.messages.conversations(a.id, 1, cursor)));
      expect(convs.map((c) => c.counterparty)).toEqual([...peers].reverse());
      for (const c of convs) {
        expect(c.last.id).toBe(latest.get(c.counterparty));
        expect(c.lastAt).toBe(T0);
      }
    });
  });

  describe('brands', () => {
    const store = useStore(engine);

    it('round-trips every field (JSON fields, submittedAt, nulls); get is scoped, getById is not', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const full = brand(a.id);
      const bare = brand(a.id, {
        status: 'draft', mock: false, entityType: null, fields: {}, tcrBrandId: null, identityStatus: null, vettingProvider: null,
        vettingClass: null, vettingScore: null, carrierSuspended: null, compliancePages: null, pageConfig: null, rejectionReason: 'r', submittedAt: null, mode: 'live',
      });
      await store().write(async (tx) => {
        await tx.brands.insert(full);
        await tx.brands.insert(bare);
      });
      await store().read(async (tx) => {
        expect(await tx.brands.get(a.id, full.id)).toEqual(full);
        expect(await tx.brands.get(a.id, bare.id)).toEqual(bare);
        expect(await tx.brands.get(b.id, full.id)).toBeUndefined();
        expect(await tx.brands.getById(bare.id)).toEqual(bare);
      });
    });

    it('save writes the mutable fields; list is newest first with a status filter', async () => {
      const a = await seedAccount(store());
      const brands = KEYSET_TIMES.map((t) => brand(a.id, { createdAt: t, status: 'draft' }));
      await store().write(async (tx) => {
        for (const x of brands) await tx.brands.insert(x);
      });
      const saved = { ...brands[1]!, legalName: 'New Name', status: 'rejected' as const, fields: { city: 'Austin' }, vettingScore: null, submittedAt: T0 + 77, rejectionReason: 'no', updatedAt: T0 + 50 };
      await store().write((tx) => tx.brands.save(saved));
      expect(await store().read((tx) => tx.brands.getById(saved.id))).toEqual(saved);
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.brands.list(a.id, {}, 3, cursor)));
      expect(paged.map((x) => x.id)).toEqual(newestFirst(brands, (x) => x.createdAt).map((x) => x.id));
      expect((await store().read((tx) => tx.brands.list(a.id, { status: 'rejected' }, 10))).data.map((x) => x.id)).toEqual([saved.id]);
    });
  });

  describe('campaigns', () => {
    const store = useStore(engine);

    it('round-trips every field; get is scoped, getById is not; save and setStatus write', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const br = brand(a.id);
      const c = campaign(a.id, br.id);
      const bare = campaign(a.id, br.id, { status: 'draft', content: { description: '', optInDetails: '', sampleMessages: [] }, tcrCampaignId: null, mock: true, cnpSharingStatus: null, mnoMetadata: null, remediationAttempts: 0, lastRejectionReason: null, mode: 'test' });
      await store().write(async (tx) => {
        await tx.brands.insert(br);
        await tx.campaigns.insert(c);
        await tx.campaigns.insert(bare);
      });
      await store().read(async (tx) => {
        expect(await tx.campaigns.get(a.id, c.id)).toEqual(c);
        expect(await tx.campaigns.get(a.id, bare.id)).toEqual(bare);
        expect(await tx.campaigns.get(b.id, c.id)).toBeUndefined();
        expect(await tx.campaigns.getById(c.id)).toEqual(c);
      });
      const saved = { ...c, name: 'Renamed', status: 'rejected' as const, content: { ...c.content, description: 'new' }, mnoMetadata: null, remediationAttempts: 3, lastRejectionReason: null, updatedAt: T0 + 40 };
      await store().write((tx) => tx.campaigns.save(saved));
      expect(await store().read((tx) => tx.campaigns.getById(c.id))).toEqual(saved);
      await store().write((tx) => tx.campaigns.setStatus(c.id, 'approved', T0 + 50));
      expect(await store().read((tx) => tx.campaigns.getById(c.id))).toEqual({ ...saved, status: 'approved', updatedAt: T0 + 50 });
    });

    it('listForBrand is the brand\'s campaigns in a status, oldest first; namesByIds maps ids to names', async () => {
      const a = await seedAccount(store());
      const [b1, b2] = [brand(a.id), brand(a.id)];
      const drafts = [campaign(a.id, b1.id, { status: 'draft', name: 'one' }), campaign(a.id, b1.id, { status: 'draft', name: 'two' })];
      await store().write(async (tx) => {
        await tx.brands.insert(b1);
        await tx.brands.insert(b2);
        for (const c of drafts) await tx.campaigns.insert(c);
        await tx.campaigns.insert(campaign(a.id, b1.id, { status: 'approved' }));
        await tx.campaigns.insert(campaign(a.id, b2.id, { status: 'draft' }));
      });
      await store().read(async (tx) => {
        expect((await tx.campaigns.listForBrand(b1.id, 'draft')).map((c) => c.id)).toEqual(drafts.map((c) => c.id));
        const names = await tx.campaigns.namesByIds([drafts[1]!.id, drafts[0]!.id, drafts[0]!.id, 'cmp_missing']);
        expect([...names.entries()].sort()).toEqual([[drafts[0]!.id, 'one'], [drafts[1]!.id, 'two']].sort());
        expect((await tx.campaigns.namesByIds([])).size).toBe(0);
      });
    });

    it('listSummaries: newest first across pages, with the brand\'s legal name and the count of assigned numbers', async () => {
      const a = await seedAccount(store());
      const br = brand(a.id, { legalName: 'Brand One' });
      const camps = KEYSET_TIMES.map((t) => campaign(a.id, br.id, { createdAt: t }));
      await store().write(async (tx) => {
        await tx.brands.insert(br);
        for (const c of camps) await tx.campaigns.insert(c);
        await tx.numbers.insert(numberRecord(a.id, { campaignId: camps[0]!.id }));
        await tx.numbers.insert(numberRecord(a.id, { campaignId: camps[0]!.id }));
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.campaigns.listSummaries(a.id, {}, 3, cursor)));
      expect(paged.map((c) => c.id)).toEqual(newestFirst(camps, (c) => c.createdAt).map((c) => c.id));
      const first = paged.find((c) => c.id === camps[0]!.id)!;
      expect(first).toEqual({ ...camps[0], brandName: 'Brand One', numbers: 2 });
      expect(paged.filter((c) => c.numbers === 0)).toHaveLength(camps.length - 1);
      expect((await store().read((tx) => tx.campaigns.listSummaries(a.id, { brandId: 'brd_other' }, 10))).data).toEqual([]);
    });
  });

  describe('optOuts', () => {
    const store = useStore(engine);

    it('findActive sees an active opt-out; lift makes it inactive once; a new one may follow', async () => {
      const a = await seedAccount(store());
      const o = optOut(a.id);
      await store().write((tx) => tx.optOuts.insert(o));
      expect(await store().read((tx) => tx.optOuts.findActive(a.id, o.from, o.phoneNumber))).toEqual(o);
      expect(await store().write((tx) => tx.optOuts.lift(o.id, 'START', T0 + 5))).toBe(true);
      expect(await store().write((tx) => tx.optOuts.lift(o.id, 'START', T0 + 6))).toBe(false);
      expect(await store().read((tx) => tx.optOuts.findActive(a.id, o.from, o.phoneNumber))).toBeUndefined();
      const again = optOut(a.id, { keyword: 'UNSUBSCRIBE', createdAt: T0 + 10 });
      await store().write((tx) => tx.optOuts.insert(again));
      expect(await store().read((tx) => tx.optOuts.findActive(a.id, o.from, o.phoneNumber))).toEqual(again);
    });

    it('one active opt-out per account, number and consumer: a second insert fails', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      await store().write((tx) => tx.optOuts.insert(optOut(a.id)));
      await expect(store().write((tx) => tx.optOuts.insert(optOut(a.id)))).rejects.toThrow();
      await store().write((tx) => tx.optOuts.insert(optOut(b.id)));
      await store().write((tx) => tx.optOuts.insert(optOut(a.id, { from: '+14155550101' })));
    });

    it('lists only active opt-outs, newest first across pages, filtered by from and phoneNumber', async () => {
      const a = await seedAccount(store());
      const list = KEYSET_TIMES.map((t, i) => optOut(a.id, { phoneNumber: `+1415555020${i}`, createdAt: t }));
      const lifted = optOut(a.id, { phoneNumber: '+14155550299' });
      await store().write(async (tx) => {
        for (const o of list) await tx.optOuts.insert(o);
        await tx.optOuts.insert(lifted);
        await tx.optOuts.lift(lifted.id, 'START', T0);
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.optOuts.list(a.id, {}, 3, cursor)));
      expect(paged.map((o) => o.id)).toEqual(newestFirst(list, (o) => o.createdAt).map((o) => o.id));
      expect((await store().read((tx) => tx.optOuts.list(a.id, { phoneNumber: '+14155550203' }, 10))).data.map((o) => o.id)).toEqual([list[3]!.id]);
      expect((await store().read((tx) => tx.optOuts.list(a.id, { from: '+19999999999' }, 10))).data).toEqual([]);
    });
  });

  describe('leads', () => {
    const store = useStore(engine);

    it('round-trips every field; a brand\'s leads come oldest first', async () => {
      const a = await seedAccount(store());
      const [b1, b2] = [brand(a.id), brand(a.id)];
      const lead = (over: Partial<LeadRecord>): LeadRecord => ({
        id: uid('lead'), accountId: a.id, brandId: b1.id, firstName: 'Ana', lastName: 'Ruiz', email: 'ana@example.com', phone: '+14155550123',
        consent: true, consentText: 'I agree to receive texts.', capturedAt: T0, createdAt: T0, ...over,
      });
      const l1 = lead({ createdAt: T0 + 2, capturedAt: T0 + 2 });
      const l2 = lead({ email: null, consent: false, createdAt: T0 + 1, capturedAt: T0 + 1 });
      await store().write(async (tx) => {
        await tx.brands.insert(b1);
        await tx.brands.insert(b2);
        await tx.leads.insert(l1);
        await tx.leads.insert(l2);
        await tx.leads.insert(lead({ brandId: b2.id }));
      });
      expect(await store().read((tx) => tx.leads.listForBrand(b1.id))).toEqual([l2, l1]);
    });
  });

  describe('ports', () => {
    const store = useStore(engine);

    it('round-trips every field; get is scoped, getById is not; save writes its fields', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const p = port(a.id);
      await store().write((tx) => tx.ports.insert(p));
      await store().read(async (tx) => {
        expect(await tx.ports.get(a.id, p.id)).toEqual(p);
        expect(await tx.ports.get(b.id, p.id)).toBeUndefined();
        expect(await tx.ports.getById(p.id)).toEqual(p);
      });
      const saved = { ...p, status: 'foc_scheduled' as const, focDate: T0 + 86_400_000, rejectionReason: 'none', updatedAt: T0 + 3 };
      await store().write((tx) => tx.ports.save(saved));
      expect(await store().read((tx) => tx.ports.getById(p.id))).toEqual(saved);
    });

    it('openPortFor finds the open port holding a number, whatever the account, and none once it is closed', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const p = port(b.id, { status: 'submitted' });
      await store().write(async (tx) => {
        await tx.ports.insert(port(a.id, { status: 'canceled' }));
        await tx.ports.insert(p);
      });
      expect((await store().read((tx) => tx.ports.openPortFor(p.phoneNumbers[1]!)))?.id).toBe(p.id);
      expect(await store().read((tx) => tx.ports.openPortFor('+19999999999'))).toBeUndefined();
      await store().write((tx) => tx.ports.save({ ...p, status: 'completed' }));
      expect(await store().read((tx) => tx.ports.openPortFor(p.phoneNumbers[0]!))).toBeUndefined();
    });

    it('lists newest first across pages, with a status filter', async () => {
      const a = await seedAccount(store());
      const ports = KEYSET_TIMES.map((t, i) => port(a.id, { createdAt: t, status: i === 2 ? 'rejected' : 'draft' }));
      await store().write(async (tx) => {
        for (const p of ports) await tx.ports.insert(p);
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.ports.list(a.id, {}, 3, cursor)));
      expect(paged.map((p) => p.id)).toEqual(newestFirst(ports, (p) => p.createdAt).map((p) => p.id));
      expect((await store().read((tx) => tx.ports.list(a.id, { status: 'rejected' }, 10))).data.map((p) => p.id)).toEqual([ports[2]!.id]);
    });

    it('documents: a new one replaces the same type; bytes round-trip exactly; listed per port in upload order', async () => {
      const a = await seedAccount(store());
      const [p, q] = [port(a.id), port(a.id)];
      const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a, 0x00]);
      const loa1 = { id: uid('doc'), portId: p.id, type: 'loa' as const, filename: 'loa.pdf', sizeBytes: 3, uploadedAt: T0 };
      const bill = { id: uid('doc'), portId: p.id, type: 'bill' as const, filename: 'bill.pdf', sizeBytes: bytes.length, uploadedAt: T0 + 1 };
      const loa2 = { id: uid('doc'), portId: p.id, type: 'loa' as const, filename: 'loa-v2.pdf', sizeBytes: bytes.length, uploadedAt: T0 + 2 };
      await store().write(async (tx) => {
        await tx.ports.insert(p);
        await tx.ports.insert(q);
        await tx.ports.putDocument(loa1, Buffer.from('old'));
        await tx.ports.putDocument(bill, bytes);
        await tx.ports.putDocument(loa2, bytes);
      });
      await store().read(async (tx) => {
        const docs = await tx.ports.documentsFor([p.id, q.id]);
        expect(docs.get(p.id)).toEqual([bill, loa2]);
        expect(docs.get(q.id)).toEqual([]);
        expect(Buffer.compare((await tx.ports.documentContent(loa2.id))!, bytes)).toBe(0);
        expect(await tx.ports.documentContent(loa1.id)).toBeUndefined();
      });
    });
  });
}
