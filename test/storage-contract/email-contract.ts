import { describe, expect, it } from 'vitest';
import type { SuppressionRecord } from '../../src/server/storage/suppressions-repo.js';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';
import { KEYSET_TIMES, T0, email, newestFirst, pageAll, seedAccount, sendingDomain, uid, useStore } from './fixtures.js';

// Sending domains, emails with recipients and timeline, suppressions, the mail sandbox, sandbox DNS (contract §8, §9).

const HOUR = 3_600_000;

/** An account with one sending domain (emails belong to one). */
async function accountWithDomain(store: Store) {
  const a = await seedAccount(store);
  const d = sendingDomain(a.id);
  await store.write((tx) => tx.sendingDomains.insert(d));
  return { a, d };
}

function suppression(accountId: string, over: Partial<SuppressionRecord> = {}): SuppressionRecord {
  return { accountId, address: 'bob@example.com', reason: 'hard_bounce', emailId: null, createdAt: T0, ...over };
}

export function emailContract(engine: EngineUnderTest): void {
  describe('sendingDomains', () => {
    const store = useStore(engine);

    it('round-trips every field; get is scoped; getById and findByDomain are not', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const d = sendingDomain(a.id);
      const v = sendingDomain(a.id, { status: 'verified', everVerified: true, mode: 'test', verifiedAt: T0 + 1, lastCheckedAt: null, records: [] });
      await store().write(async (tx) => {
        await tx.sendingDomains.insert(d);
        await tx.sendingDomains.insert(v);
      });
      await store().read(async (tx) => {
        expect(await tx.sendingDomains.get(a.id, d.id)).toEqual(d);
        expect(await tx.sendingDomains.get(a.id, v.id)).toEqual(v);
        expect(await tx.sendingDomains.get(b.id, d.id)).toBeUndefined();
        expect(await tx.sendingDomains.getById(d.id)).toEqual(d);
        expect(await tx.sendingDomains.findByDomain(v.domain)).toEqual(v);
      });
    });

    it('a domain name belongs to one account: a second insert (any account) fails until the first is deleted', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const d = sendingDomain(a.id, { domain: 'acme.example' });
      await store().write((tx) => tx.sendingDomains.insert(d));
      await expect(store().write((tx) => tx.sendingDomains.insert(sendingDomain(b.id, { domain: 'acme.example' })))).rejects.toThrow();
      await expect(store().write((tx) => tx.sendingDomains.insert(sendingDomain(a.id, { domain: 'acme.example' })))).rejects.toThrow();
      expect(await store().write((tx) => tx.sendingDomains.delete(d.id))).toBe(true);
      expect(await store().write((tx) => tx.sendingDomains.delete(d.id))).toBe(false);
      const taken = sendingDomain(b.id, { domain: 'acme.example' });
      await store().write((tx) => tx.sendingDomains.insert(taken));
      expect((await store().read((tx) => tx.sendingDomains.findByDomain('acme.example')))?.accountId).toBe(b.id);
    });

    it('claimsOver answers the registered domains that are the name or a parent of it', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const parent = sendingDomain(a.id, { domain: 'example.org' });
      const mid = sendingDomain(b.id, { domain: 'mail.example.org' });
      const sibling = sendingDomain(b.id, { domain: 'other.example.org' });
      await store().write(async (tx) => {
        for (const d of [parent, mid, sibling]) await tx.sendingDomains.insert(d);
      });
      const claims = await store().read((tx) => tx.sendingDomains.claimsOver('x.mail.example.org'));
      expect(claims.map((d) => d.domain).sort()).toEqual(['example.org', 'mail.example.org']);
      expect((await store().read((tx) => tx.sendingDomains.claimsOver('mail.example.org'))).map((d) => d.domain).sort()).toEqual(['example.org', 'mail.example.org']);
      expect(await store().read((tx) => tx.sendingDomains.claimsOver('example.net'))).toEqual([]);
    });

    it('save writes a check\'s changes; list is newest first with a status filter', async () => {
      const a = await seedAccount(store());
      const doms = KEYSET_TIMES.map((t) => sendingDomain(a.id, { createdAt: t }));
      await store().write(async (tx) => {
        for (const d of doms) await tx.sendingDomains.insert(d);
      });
      const saved = { ...doms[0]!, status: 'verified' as const, everVerified: true, verifiedAt: T0 + 3, lastCheckedAt: T0 + 3, updatedAt: T0 + 3, records: doms[0]!.records.map((r) => ({ ...r, status: 'valid' as const })) };
      await store().write((tx) => tx.sendingDomains.save(saved));
      expect(await store().read((tx) => tx.sendingDomains.getById(saved.id))).toEqual(saved);
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.sendingDomains.list(a.id, {}, 3, cursor)));
      expect(paged.map((d) => d.id)).toEqual(newestFirst(doms, (d) => d.createdAt).map((d) => d.id));
      expect((await store().read((tx) => tx.sendingDomains.list(a.id, { status: 'verified' }, 10))).data.map((d) => d.id)).toEqual([saved.id]);
    });
  });

  describe('emails', () => {
    const store = useStore(engine);

    it('insert keeps the recipients in the order given and answers them with their positions', async () => {
      const { a, d } = await accountWithDomain(store());
      const b = await seedAccount(store());
      const e = email(a.id, d.id);
      const recipients = await store().write((tx) =>
        tx.emails.insert(e, [
          { address: 'to@example.com', kind: 'to', status: 'queued' },
          { address: 'cc@example.com', kind: 'cc', status: 'queued' },
          { address: 'gone@example.com', kind: 'bcc', status: 'suppressed' },
        ]),
      );
      expect(recipients.map((r) => [r.address, r.kind, r.status, r.emailId])).toEqual([
        ['to@example.com', 'to', 'queued', e.id], ['cc@example.com', 'cc', 'queued', e.id], ['gone@example.com', 'bcc', 'suppressed', e.id],
      ]);
      expect(new Set(recipients.map((r) => r.seq)).size).toBe(3);
      expect(recipients.every((r) => r.openedAt === null && r.deliveredAt === null)).toBe(true);
      await store().read(async (tx) => {
        expect(await tx.emails.recipients(e.id)).toEqual(recipients);
        expect(await tx.emails.get(a.id, e.id)).toEqual(e);
        expect(await tx.emails.get(b.id, e.id)).toBeUndefined();
        expect(await tx.emails.getById(e.id)).toEqual(e);
      });
    });

    it('round-trips nulls and JSON; updateRecipient changes only the given fields; setStatus', async () => {
      const { a, d } = await accountWithDomain(store());
      const e = email(a.id, d.id, { mode: 'test', subject: null, html: null, text: 'plain', tags: [], metadata: {}, externalRef: 'ext-1' });
      const [r] = await store().write((tx) => tx.emails.insert(e, [{ address: 'x@example.com', kind: 'to', status: 'queued' }]));
      await store().write(async (tx) => {
        await tx.emails.updateRecipient(r!.seq, { status: 'delivered', deliveredAt: T0 + 5, updatedAt: T0 + 5 });
        await tx.emails.updateRecipient(r!.seq, { openedAt: T0 + 6, updatedAt: T0 + 6 });
        await tx.emails.setStatus(e.id, 'delivered', T0 + 7);
      });
      await store().read(async (tx) => {
        expect(await tx.emails.recipients(e.id)).toEqual([{ ...r, status: 'delivered', deliveredAt: T0 + 5, openedAt: T0 + 6, updatedAt: T0 + 6 }]);
        expect(await tx.emails.getById(e.id)).toEqual({ ...e, status: 'delivered', updatedAt: T0 + 7 });
      });
    });

    it('the timeline round-trips and reads oldest first', async () => {
      const { a, d } = await accountWithDomain(store());
      const e = email(a.id, d.id);
      const [r] = await store().write((tx) => tx.emails.insert(e, [{ address: 'x@example.com', kind: 'to', status: 'queued' }]));
      const entries = [
        { emailId: e.id, recipientSeq: r!.seq, type: 'email.bounced', status: 'bounced', occurredAt: T0 + 2, bounce: { class: 'hard', code: 550, message: 'no such user' }, url: null, method: null },
        { emailId: e.id, recipientSeq: r!.seq, type: 'email.clicked', status: 'delivered', occurredAt: T0 + 1, bounce: { class: 'soft', code: null, message: null }, url: 'https://example.com/', method: null },
        { emailId: e.id, recipientSeq: r!.seq, type: 'email.unsubscribed', status: 'delivered', occurredAt: T0 + 3, bounce: null, url: null, method: 'one_click' as const },
      ];
      await store().write(async (tx) => {
        for (const t of entries) await tx.emails.addTimelineEntry(t);
      });
      expect(await store().read((tx) => tx.emails.timeline(e.id))).toEqual(entries);
    });

    it('lists newest first across pages, with a status filter', async () => {
      const { a, d } = await accountWithDomain(store());
      const emails = KEYSET_TIMES.map((t, i) => email(a.id, d.id, { createdAt: t, status: i === 4 ? 'bounced' : 'queued' }));
      await store().write(async (tx) => {
        for (const e of emails) await tx.emails.insert(e, []);
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.emails.list(a.id, 3, cursor)));
      expect(paged.map((e) => e.id)).toEqual(newestFirst(emails, (e) => e.createdAt).map((e) => e.id));
      expect((await store().read((tx) => tx.emails.list(a.id, 10, undefined, 'bounced'))).data.map((e) => e.id)).toEqual([emails[4]!.id]);
    });

    it('deliveredWindow sums the hourly counters from the hour holding `since` on, for the account only', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const hour = Math.floor(T0 / HOUR) * HOUR;
      await store().write(async (tx) => {
        await tx.emails.countDelivered(a.id, hour + 10 * 60_000);
        await tx.emails.countDelivered(a.id, hour + 50 * 60_000);
        await tx.emails.countComplained(a.id, hour + 10 * 60_000);
        await tx.emails.countDelivered(a.id, hour - 2 * HOUR);
        await tx.emails.countComplained(a.id, hour - 2 * HOUR);
        await tx.emails.countDelivered(b.id, hour + 1);
      });
      await store().read(async (tx) => {
        expect(await tx.emails.deliveredWindow(a.id, hour + 59 * 60_000)).toEqual({ delivered: 2, complained: 1 });
        expect(await tx.emails.deliveredWindow(a.id, hour - 3 * HOUR)).toEqual({ delivered: 3, complained: 2 });
        expect(await tx.emails.deliveredWindow(a.id, hour + HOUR)).toEqual({ delivered: 0, complained: 0 });
        expect(await tx.emails.deliveredWindow(b.id, hour)).toEqual({ delivered: 1, complained: 0 });
      });
    });
  });

  describe('suppressions', () => {
    const store = useStore(engine);

    it('the first reason stays; a complaint replaces any other; per account', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const s = suppression(a.id);
      expect(await store().write((tx) => tx.suppressions.add(s))).toBe(true);
      expect(await store().write((tx) => tx.suppressions.add(suppression(a.id, { reason: 'unsubscribe', createdAt: T0 + 1 })))).toBe(false);
      expect(await store().read((tx) => tx.suppressions.find(a.id, s.address))).toEqual(s);
      const complaint = suppression(a.id, { reason: 'complaint', emailId: 'eml_1', createdAt: T0 + 2 });
      expect(await store().write((tx) => tx.suppressions.add(complaint))).toBe(true);
      expect(await store().write((tx) => tx.suppressions.add({ ...complaint, createdAt: T0 + 3 }))).toBe(false);
      expect(await store().read((tx) => tx.suppressions.find(a.id, s.address))).toEqual(complaint);
      expect(await store().read((tx) => tx.suppressions.find(b.id, s.address))).toBeUndefined();
      expect(await store().write((tx) => tx.suppressions.add(suppression(b.id)))).toBe(true);
    });

    it('remove answers whether it removed; lists newest first across pages with a reason filter', async () => {
      const a = await seedAccount(store());
      const list = KEYSET_TIMES.map((t, i) => suppression(a.id, { address: `u${i}@example.com`, createdAt: t, reason: i === 3 ? 'unsubscribe' : 'hard_bounce' }));
      await store().write(async (tx) => {
        for (const s of list) await tx.suppressions.add(s);
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.suppressions.list(a.id, 3, cursor)));
      expect(paged).toEqual(newestFirst(list, (s) => s.createdAt));
      expect((await store().read((tx) => tx.suppressions.list(a.id, 10, undefined, 'unsubscribe'))).data).toEqual([list[3]]);
      expect(await store().write((tx) => tx.suppressions.remove(a.id, 'u3@example.com'))).toBe(true);
      expect(await store().write((tx) => tx.suppressions.remove(a.id, 'u3@example.com'))).toBe(false);
    });
  });

  describe('mailbox', () => {
    const store = useStore(engine);

    it('positions grow; pages after a position, oldest first, with the email\'s body; `to` matches case-insensitively', async () => {
      const { a, d } = await accountWithDomain(store());
      const b = await seedAccount(store());
      const e = email(a.id, d.id, { html: '<b>Hi</b>', text: 'Hi' });
      expect(await store().read((tx) => tx.mailbox.headSeq(a.id))).toBe(0);
      const msg = (to: string) => ({ id: uid('mb'), accountId: a.id, emailId: e.id, to, from: e.from, subject: e.subject, tags: ['t1'], deliveredAt: T0 });
      const rows = [msg('Ann@Example.com'), msg('bob@example.com'), msg('ann@example.com')];
      const seqs = await store().write(async (tx) => {
        await tx.emails.insert(e, []);
        const out: number[] = [];
        for (const m of rows) out.push(await tx.mailbox.insert(m));
        return out;
      });
      expect(seqs[1]!).toBeGreaterThan(seqs[0]!);
      expect(seqs[2]!).toBeGreaterThan(seqs[1]!);
      await store().read(async (tx) => {
        expect(await tx.mailbox.headSeq(a.id)).toBe(seqs[2]);
        expect(await tx.mailbox.headSeq(b.id)).toBe(0);
        expect(await tx.mailbox.page(a.id, 0, 10)).toEqual(rows.map((m, i) => ({ ...m, seq: seqs[i], text: 'Hi', html: '<b>Hi</b>' })));
        expect((await tx.mailbox.page(a.id, seqs[0]!, 1)).map((m) => m.id)).toEqual([rows[1]!.id]);
        expect((await tx.mailbox.page(a.id, 0, 10, 'ANN@example.COM')).map((m) => m.id)).toEqual([rows[0]!.id, rows[2]!.id]);
        expect(await tx.mailbox.page(b.id, 0, 10)).toEqual([]);
      });
    });

    it('an html-only email\'s messages show the derived text once it is kept', async () => {
      const { a, d } = await accountWithDomain(store());
      const e = email(a.id, d.id, { html: '<p>Only html</p>', text: null });
      await store().write(async (tx) => {
        await tx.emails.insert(e, []);
        await tx.mailbox.insert({ id: uid('mb'), accountId: a.id, emailId: e.id, to: 'x@example.com', from: e.from, subject: null, tags: [], deliveredAt: T0 });
      });
      expect((await store().read((tx) => tx.mailbox.page(a.id, 0, 10)))[0]).toMatchObject({ text: null, html: '<p>Only html</p>', subject: null });
      expect(await store().read((tx) => tx.mailbox.hasDerivedText(e.id))).toBe(false);
      await store().write((tx) => tx.mailbox.keepDerivedText(e.id, 'Only html'));
      expect(await store().read((tx) => tx.mailbox.hasDerivedText(e.id))).toBe(true);
      expect((await store().read((tx) => tx.mailbox.page(a.id, 0, 10)))[0]).toMatchObject({ text: 'Only html', html: '<p>Only html</p>' });
    });
  });

  describe('sandboxDns', () => {
    const store = useStore(engine);

    it('put replaces a name\'s records; delete answers whether it existed', async () => {
      expect(await store().read((tx) => tx.sandboxDns.get('example.com'))).toBeUndefined();
      const entry = { name: 'example.com', records: [{ type: 'TXT' as const, value: 'v=spf1 -all' }, { type: 'MX' as const, value: 'mail.svc.test' }], visibleAt: T0 + 60_000, updatedAt: T0 };
      await store().write((tx) => tx.sandboxDns.put(entry, 'live'));
      expect(await store().read((tx) => tx.sandboxDns.get('example.com'))).toEqual(entry);
      expect(await store().read((tx) => tx.sandboxDns.publishedWith('example.com'))).toBe('live');
      const next = { ...entry, records: [{ type: 'CNAME' as const, value: 'x.example.net' }], visibleAt: T0, updatedAt: T0 + 1 };
      await store().write((tx) => tx.sandboxDns.put(next, 'test'));
      expect(await store().read((tx) => tx.sandboxDns.get('example.com'))).toEqual(next);
      // contract §2: the mode of the key that last published the name.
      expect(await store().read((tx) => tx.sandboxDns.publishedWith('example.com'))).toBe('test');
      expect(await store().read((tx) => tx.sandboxDns.publishedWith('nothing.example'))).toBeUndefined();
      expect(await store().write((tx) => tx.sandboxDns.delete('example.com'))).toBe(true);
      expect(await store().write((tx) => tx.sandboxDns.delete('example.com'))).toBe(false);
      expect(await store().read((tx) => tx.sandboxDns.get('example.com'))).toBeUndefined();
    });
  });
}
