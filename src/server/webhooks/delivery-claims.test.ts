import { describe, expect, it } from 'vitest';
import type { UnitOfWork } from '../domain/deps.js';
import type { DeliveryAttemptState } from '../storage/webhook-deliveries-repo.js';
import { LeasedClaims, SoleAttempter } from './delivery-claims.js';

const state = (id: string, nextAttemptAt: number | null): DeliveryAttemptState => ({ id, endpointId: 'we_1', eventId: 'evt', eventType: 't', isTest: false, maxAttempts: 3, attempt: 0, nextAttemptAt, rawBody: '{}' });
const endpoint = { id: 'we_1', accountId: 'acc_1', url: 'http://127.0.0.1/', events: ['*'], secret: 's', createdAt: 0, enabled: true, disabledReason: null };

/** Deliveries in memory, with the claim statements as the engines run them; what each write was asked with. */
function fakeStorage(rows: DeliveryAttemptState[]) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const owners = new Map<string, string>();
  const writes: unknown[] = [];
  const tx = {
    webhookDeliveries: {
      attemptStates: async (ids: string[]) => ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
      attemptState: async (id: string) => byId.get(id),
      claimAttempts: async (ids: string[], owner: string, _lease: number, now: number) =>
        ids.filter((id) => {
          const s = byId.get(id);
          if (!s || s.nextAttemptAt === null || s.nextAttemptAt > now || (owners.has(id) && owners.get(id) !== owner)) return false;
          owners.set(id, owner);
          return true;
        }),
      claimAttempt: async (id: string, owner: string) => (owners.has(id) && owners.get(id) !== owner ? false : (owners.set(id, owner), true)),
      renewClaims: async (owner: string, ids: string[]) => ids.filter((id) => owners.get(id) === owner),
      releaseClaims: async (owner: string) => {
        for (const [id, o] of owners) if (o === owner) owners.delete(id);
      },
      leaseExpired: async () => [{ id: 'whd_expired', endpointId: 'we_1' }],
      unclaimedDue: async () => [{ id: 'whd_orphan', endpointId: 'we_2' }],
    },
    webhookEndpoints: { targetById: async () => endpoint },
  };
  const uow = {
    read: async (fn: (t: typeof tx) => Promise<unknown>) => await fn(tx),
    write: async (fn: (t: typeof tx) => Promise<unknown>, opts?: unknown) => {
      writes.push(opts);
      return await fn(tx);
    },
  } as unknown as Pick<UnitOfWork, 'read' | 'write'>;
  return { uow, owners, writes };
}

const silent = { error: () => undefined };

describe('SoleAttempter', () => {
  it('reads the states instead of claiming: only those due now are won, the endpoint read only then', async () => {
    const { uow, owners, writes } = fakeStorage([state('a', 100), state('b', 300), state('c', null)]);
    const claims = new SoleAttempter(uow);
    const got = await claims.claimBatch('we_1', ['a', 'b', 'c', 'gone'], 200);
    expect(got.states.map((s) => s.id)).toEqual(['a']);
    expect(got.endpoint).toEqual(endpoint);
    expect(await claims.claimBatch('we_1', ['b'], 200)).toEqual({ states: [], endpoint: undefined });
    // A probe: due or not, while an attempt is left to make.
    expect((await claims.claimOne('b'))?.state.id).toBe('b');
    expect(await claims.claimOne('c')).toBeUndefined();
    expect(owners.size).toBe(0);
    expect(writes).toEqual([]);
  });
});

describe('LeasedClaims', () => {
  const lease = { owner: 'me', leaseMs: 60_000 };

  it('claims in one row-guarded write what is due and not another process\'s, and holds what it won until forgotten', async () => {
    const { uow, owners, writes } = fakeStorage([state('a', 100), state('b', 100), state('c', 500)]);
    owners.set('b', 'other');
    const claims = new LeasedClaims(uow, lease, () => 0, silent);
    const got = await claims.claimBatch('we_1', ['a', 'b', 'c'], 200);
    expect(got.states.map((s) => s.id)).toEqual(['a']);
    expect(writes).toEqual([{ rowGuarded: true }]);
    claims.hold('a');
    expect(claims.heldCount).toBe(1);
    claims.forget('a');
    expect(claims.heldCount).toBe(0);
    expect((await claims.claimOne('c', 200))?.state.id).toBe('c');
    expect(claims.heldCount).toBe(1);
    expect(await claims.claimOne('b', 200)).toBeUndefined();
    expect(claims.heldCount).toBe(1);
  });

  it('a renewal forgets the claims found lost; a release gives back every claim and holds none', async () => {
    const { uow, owners } = fakeStorage([state('a', 0), state('b', 0)]);
    const claims = new LeasedClaims(uow, lease, () => 0, silent);
    await claims.claimBatch('we_1', ['a', 'b'], 0);
    claims.hold('a');
    claims.hold('b');
    owners.set('b', 'other'); // taken over meanwhile
    await claims.renew();
    expect(claims.heldCount).toBe(1);
    await claims.releaseAll();
    expect(claims.heldCount).toBe(0);
    expect([...owners.values()]).toEqual(['other']);
  });

  it('the sweep hands on what a dead process left while started, and nothing once its timers are stopped', async () => {
    const { uow } = fakeStorage([]);
    const claims = new LeasedClaims(uow, lease, () => 0, silent);
    const left: string[] = [];
    await claims.sweep();
    expect(left).toEqual([]);
    claims.start((id, endpointId) => left.push(`${id}@${endpointId}`));
    await claims.sweep();
    expect(left).toEqual(['whd_expired@we_1', 'whd_orphan@we_2']);
    claims.stopTimers();
    await claims.sweep();
    expect(left).toHaveLength(2);
  });

  it('a renewal that fails is logged and holds on to the claims (the next one tries again)', async () => {
    const { uow } = fakeStorage([]);
    const failing = { ...uow, write: () => Promise.reject(new Error('lost its race')) } as unknown as Pick<UnitOfWork, 'read' | 'write'>;
    const logged: string[] = [];
    const claims = new LeasedClaims(failing, lease, () => 0, { error: (_o, msg) => logged.push(msg) });
    claims.hold('a');
    await claims.renew();
    expect(claims.heldCount).toBe(1);
    expect(logged).toEqual(['renewing the claims on webhook attempts failed']);
  });
});
