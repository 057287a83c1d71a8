import { describe, expect, it } from 'vitest';
import type { BlockedNumberRecord } from '../../src/server/storage/blocked-numbers-repo.js';
import type { DeviceRecord } from '../../src/server/storage/devices-repo.js';
import type { RouteRecord, StoredRoute } from '../../src/server/storage/routes-repo.js';
import type { VoicemailRecord } from '../../src/server/storage/voicemails-repo.js';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';
import { KEYSET_TIMES, T0, call, newestFirst, numberRecord, pageAll, seedAccount, uid, useStore } from './fixtures.js';

// Call routes, the blocklist, softphone devices, calls and voicemails (contract §6).

const route: StoredRoute = {
  id: 'route_1', destinationType: 'sip', destination: 'sip:desk@example.com', ringTimeoutSecs: 20, enabled: true, ringMode: 'sequential',
  callerIdMode: 'caller',
  destinations: [{ id: 'd1', destinationType: 'pstn', destination: '+14155550100', label: null, priority: 1, stage: 0, ringTimeoutSecs: 15, enabled: false }],
  recordCalls: true, liveTranscription: false, voicemailEnabled: true, voicemailGreeting: 'Leave a message', noAnswerAction: { type: 'forward', to: '+14155550111' },
  outboundRingTimeoutSecs: null, recordingNotice: { text: 'This call is recorded', audioUrl: null },
  ivr: { enabled: true, greeting: { text: null, audioUrl: 'greet.wav' }, digitTimeoutSecs: 5, invalidRetries: 2, keys: [{ digit: '1', label: 'Sales', action: { type: 'voicemail' } }], fallback: { type: 'repeat' } },
  decisionWebhook: { enabled: false, url: 'http://127.0.0.1:9/decide', timeoutMs: 1500 },
};

function blocked(accountId: string, over: Partial<BlockedNumberRecord> = {}): BlockedNumberRecord {
  return { id: uid('blk'), accountId, phoneNumber: '+14155550666', reason: 'spam', autoSuggested: false, blockedCallCount: 0, lastBlockedAt: null, createdAt: T0, updatedAt: T0, mode: 'live', ...over };
}

function device(accountId: string, over: Partial<DeviceRecord> = {}): DeviceRecord {
  return { id: uid('dev'), accountId, userId: 'user_1', label: 'laptop', presence: 'offline', lastSeenAt: null, mode: 'test', createdAt: T0, ...over };
}

/** An account with one number (calls and routes belong to a number). */
async function accountWithNumber(store: Store) {
  const a = await seedAccount(store);
  const n = numberRecord(a.id);
  await store.write((tx) => tx.numbers.insert(n));
  return { a, n };
}

export function voiceContract(engine: EngineUnderTest): void {
  describe('routes', () => {
    const store = useStore(engine);

    it('save inserts or replaces a number\'s row; get, getMany and greetingMediaNames read it back', async () => {
      const { a, n } = await accountWithNumber(store());
      const n2 = numberRecord(a.id);
      await store().write((tx) => tx.numbers.insert(n2));
      expect(await store().read((tx) => tx.routes.get(n.id))).toBeUndefined();
      const r: RouteRecord = { numberId: n.id, accountId: a.id, route, greetingMedia: 'greeting-1.wav', version: 1, createdAt: T0, updatedAt: T0 };
      const bare: RouteRecord = { numberId: n2.id, accountId: a.id, route: null, greetingMedia: null, version: 1, createdAt: T0, updatedAt: T0 };
      await store().write(async (tx) => {
        await tx.routes.save(r);
        await tx.routes.save(bare);
      });
      expect(await store().read((tx) => tx.routes.get(n.id))).toEqual(r);
      const next: RouteRecord = { ...r, route: { ...route, ringMode: 'staged', destinations: [] }, greetingMedia: 'greeting-2.wav', version: 2, updatedAt: T0 + 9 };
      await store().write((tx) => tx.routes.save(next));
      await store().read(async (tx) => {
        expect(await tx.routes.get(n.id)).toEqual(next);
        const many = await tx.routes.getMany([n.id, n2.id, 'num_missing']);
        expect([...many.keys()].sort()).toEqual([n.id, n2.id].sort());
        expect(many.get(n2.id)).toEqual(bare);
        expect((await tx.routes.getMany([])).size).toBe(0);
        expect(await tx.routes.greetingMediaNames()).toEqual(['greeting-2.wav']);
      });
    });
  });

  describe('blockedNumbers', () => {
    const store = useStore(engine);

    it('insertIfAbsent adds one entry per account and number: the second answers false and changes nothing', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const first = blocked(a.id);
      expect(await store().write((tx) => tx.blockedNumbers.insertIfAbsent(first))).toBe(true);
      expect(await store().write((tx) => tx.blockedNumbers.insertIfAbsent(blocked(a.id, { reason: 'other', autoSuggested: true })))).toBe(false);
      expect(await store().write((tx) => tx.blockedNumbers.insertIfAbsent(blocked(b.id)))).toBe(true);
      await store().read(async (tx) => {
        expect(await tx.blockedNumbers.findByNumber(a.id, first.phoneNumber)).toEqual(first);
        expect(await tx.blockedNumbers.get(a.id, first.id)).toEqual(first);
        expect(await tx.blockedNumbers.get(b.id, first.id)).toBeUndefined();
        expect((await tx.blockedNumbers.list(a.id, { limit: 10 })).data).toHaveLength(1);
      });
    });

    it('update, recordBlockedCall and delete', async () => {
      const a = await seedAccount(store());
      const e = blocked(a.id, { autoSuggested: true, reason: null });
      await store().write(async (tx) => {
        await tx.blockedNumbers.insertIfAbsent(e);
        await tx.blockedNumbers.update({ ...e, reason: 'confirmed', autoSuggested: false, updatedAt: T0 + 1 });
        await tx.blockedNumbers.recordBlockedCall(e.id, T0 + 5);
        await tx.blockedNumbers.recordBlockedCall(e.id, T0 + 7);
      });
      expect(await store().read((tx) => tx.blockedNumbers.get(a.id, e.id))).toEqual({ ...e, reason: 'confirmed', autoSuggested: false, blockedCallCount: 2, lastBlockedAt: T0 + 7, updatedAt: T0 + 7 });
      await store().write((tx) => tx.blockedNumbers.delete(e.id));
      expect(await store().read((tx) => tx.blockedNumbers.findByNumber(a.id, e.phoneNumber))).toBeUndefined();
    });

    it('lists newest first across pages; autoSuggested keeps suggestions or confirmed entries', async () => {
      const a = await seedAccount(store());
      const entries = KEYSET_TIMES.map((t, i) => blocked(a.id, { phoneNumber: `+1415555030${i}`, autoSuggested: i % 3 === 0, createdAt: t }));
      await store().write(async (tx) => {
        for (const e of entries) await tx.blockedNumbers.insertIfAbsent(e);
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.blockedNumbers.list(a.id, { limit: 3, cursor })));
      expect(paged.map((e) => e.id)).toEqual(newestFirst(entries, (e) => e.createdAt).map((e) => e.id));
      const suggested = await store().read((tx) => tx.blockedNumbers.list(a.id, { limit: 10, autoSuggested: true }));
      expect(suggested.data.map((e) => e.id).sort()).toEqual(entries.filter((e) => e.autoSuggested).map((e) => e.id).sort());
      const confirmed = await store().read((tx) => tx.blockedNumbers.list(a.id, { limit: 10, autoSuggested: false }));
      expect(confirmed.data).toHaveLength(entries.filter((e) => !e.autoSuggested).length);
    });

    it('countShortOrUnansweredInbound counts missed and short answered inbound calls since a time, nothing else', async () => {
      const { a, n } = await accountWithNumber(store());
      const from = '+14155550888';
      const base = { from, direction: 'inbound' as const, startedAt: T0 };
      const counted = [
        call(a.id, n.id, { ...base, status: 'missed', answeredAt: null, durationSeconds: null, mode: 'test' }),
        call(a.id, n.id, { ...base, status: 'completed', durationSeconds: 4, mode: 'test' }),
      ];
      const ignored = [
        call(a.id, n.id, { ...base, status: 'completed', durationSeconds: 10 }), // not short (10 is not < 10)
        call(a.id, n.id, { ...base, status: 'blocked' }),
        call(a.id, n.id, { ...base, status: 'failed' }),
        call(a.id, n.id, { ...base, status: 'in_progress', durationSeconds: null }),
        call(a.id, n.id, { ...base, status: 'missed', direction: 'outbound' }),
        call(a.id, n.id, { ...base, status: 'missed', startedAt: T0 - 1 }),
        call(a.id, n.id, { ...base, status: 'missed', from: '+14155550889' }),
      ];
      await store().write(async (tx) => {
        for (const c of [...counted, ...ignored]) await tx.calls.insert(c);
      });
      // contract §2 (migration 17): `live` says whether a call placed with a live key counted.
      expect(await store().read((tx) => tx.blockedNumbers.countShortOrUnansweredInbound(a.id, from, T0, 10))).toEqual({ n: 2, live: false });
      await store().write((tx) => tx.calls.insert(call(a.id, n.id, { ...base, status: 'missed', answeredAt: null, durationSeconds: null, mode: 'live' })));
      expect(await store().read((tx) => tx.blockedNumbers.countShortOrUnansweredInbound(a.id, from, T0, 10))).toEqual({ n: 3, live: true });
    });
  });

  describe('devices', () => {
    const store = useStore(engine);

    it('insertOrGet creates one device per account, user and label; a second registration gets the first', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const d = device(a.id);
      expect(await store().write((tx) => tx.devices.insertOrGet(d))).toEqual({ device: d, created: true });
      expect(await store().write((tx) => tx.devices.insertOrGet(device(a.id, { presence: 'online', createdAt: T0 + 1 })))).toEqual({ device: d, created: false });
      expect((await store().write((tx) => tx.devices.insertOrGet(device(a.id, { label: 'phone' })))).created).toBe(true);
      expect((await store().write((tx) => tx.devices.insertOrGet(device(a.id, { userId: 'user_2' })))).created).toBe(true);
      expect((await store().write((tx) => tx.devices.insertOrGet(device(b.id)))).created).toBe(true);
      await store().read(async (tx) => {
        expect(await tx.devices.get(a.id, d.id)).toEqual(d);
        expect(await tx.devices.get(b.id, d.id)).toBeUndefined();
      });
    });

    it('recordPresence, delete, and newest-first pages', async () => {
      const a = await seedAccount(store());
      const devices = KEYSET_TIMES.map((t, i) => device(a.id, { label: `d${i}`, createdAt: t }));
      await store().write(async (tx) => {
        for (const d of devices) await tx.devices.insertOrGet(d);
        await tx.devices.recordPresence(devices[0]!.id, 'online', T0 + 30);
        await tx.devices.delete(devices[1]!.id);
      });
      expect(await store().read((tx) => tx.devices.get(a.id, devices[0]!.id))).toEqual({ ...devices[0], presence: 'online', lastSeenAt: T0 + 30 });
      const left = devices.filter((_, i) => i !== 1);
      const paged = await pageAll(2, (cursor) => store().read((tx) => tx.devices.list(a.id, 2, cursor)));
      expect(paged.map((d) => d.id)).toEqual(newestFirst(left, (d) => d.createdAt).map((d) => d.id));
    });
  });

  describe('calls', () => {
    const store = useStore(engine);

    it('round-trips every field (JSON state, trace, null state); get is scoped, getById is not; update writes progress', async () => {
      const { a, n } = await accountWithNumber(store());
      const b = await seedAccount(store());
      const c = call(a.id, n.id, { recordingId: 'rec_1' });
      const bare = call(a.id, n.id, { direction: 'outbound', status: 'ringing', answeredAt: null, endedAt: null, durationSeconds: null, answeredBy: null, answeredDevice: null, outcome: 'voicemail', mode: 'test', origin: null, state: null, trace: [] });
      await store().write(async (tx) => {
        await tx.calls.insert(c);
        await tx.calls.insert(bare);
      });
      await store().read(async (tx) => {
        expect(await tx.calls.get(a.id, c.id)).toEqual(c);
        expect(await tx.calls.get(a.id, bare.id)).toEqual(bare);
        expect(await tx.calls.get(b.id, c.id)).toBeUndefined();
        expect(await tx.calls.getById(c.id)).toEqual(c);
        expect(await tx.calls.getByRecording(a.id, 'rec_1')).toEqual(c);
        expect(await tx.calls.getByRecording(b.id, 'rec_1')).toBeUndefined();
      });
      const progress = {
        status: 'completed' as const, answeredAt: T0 + 1, endedAt: T0 + 9, durationSeconds: 8, answeredBy: 'u', answeredDevice: null, outcome: null,
        recordingId: 'rec_2', voicemailId: 'vm_1', state: null, trace: [...bare.trace, { at: T0 + 9, step: 'hangup', detail: 'caller hung up' }],
      };
      await store().write((tx) => tx.calls.update(bare.id, progress, T0 + 10));
      expect(await store().read((tx) => tx.calls.getById(bare.id))).toEqual({ ...bare, ...progress, updatedAt: T0 + 10 });
    });

    it('recording ids are unique: a second call with the same recording fails', async () => {
      const { a, n } = await accountWithNumber(store());
      await store().write((tx) => tx.calls.insert(call(a.id, n.id, { recordingId: 'rec_same' })));
      await expect(store().write((tx) => tx.calls.insert(call(a.id, n.id, { recordingId: 'rec_same' })))).rejects.toThrow();
      // Many calls without a recording are fine.
      await store().write(async (tx) => {
        await tx.calls.insert(call(a.id, n.id));
        await tx.calls.insert(call(a.id, n.id));
      });
    });

    it('lists newest first across pages, with status and direction filters', async () => {
      const { a, n } = await accountWithNumber(store());
      const calls = KEYSET_TIMES.map((t, i) => call(a.id, n.id, { createdAt: t, status: i === 1 ? 'missed' : 'completed', direction: i === 2 ? 'outbound' : 'inbound' }));
      await store().write(async (tx) => {
        for (const c of calls) await tx.calls.insert(c);
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.calls.list(a.id, {}, 3, cursor)));
      expect(paged.map((c) => c.id)).toEqual(newestFirst(calls, (c) => c.createdAt).map((c) => c.id));
      expect((await store().read((tx) => tx.calls.list(a.id, { status: 'missed' }, 10))).data.map((c) => c.id)).toEqual([calls[1]!.id]);
      expect((await store().read((tx) => tx.calls.list(a.id, { direction: 'outbound' }, 10))).data.map((c) => c.id)).toEqual([calls[2]!.id]);
    });
  });

  describe('voicemails', () => {
    const store = useStore(engine);

    it('round-trips every field; get is scoped; newest-first pages', async () => {
      const { a, n } = await accountWithNumber(store());
      const b = await seedAccount(store());
      const c = call(a.id, n.id);
      const vm = (over: Partial<VoicemailRecord>): VoicemailRecord => ({
        id: uid('vm'), accountId: a.id, callId: c.id, numberId: n.id, from: c.from, to: c.to, durationSeconds: 12, transcript: 'Call me back',
        transcriptStatus: 'available', receivedAt: T0, createdAt: T0, ...over,
      });
      const vms = KEYSET_TIMES.map((t, i) => vm({ createdAt: t, receivedAt: t, ...(i === 0 ? { transcript: null, transcriptStatus: 'failed' as const } : {}) }));
      await store().write(async (tx) => {
        await tx.calls.insert(c);
        for (const v of vms) await tx.voicemails.insert(v);
      });
      await store().read(async (tx) => {
        expect(await tx.voicemails.get(a.id, vms[0]!.id)).toEqual(vms[0]);
        expect(await tx.voicemails.get(b.id, vms[0]!.id)).toBeUndefined();
      });
      const paged = await pageAll(3, (cursor) => store().read((tx) => tx.voicemails.list(a.id, 3, cursor)));
      expect(paged.map((v) => v.id)).toEqual(newestFirst(vms, (v) => v.createdAt).map((v) => v.id));
    });
  });
}
