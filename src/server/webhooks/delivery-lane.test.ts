import { describe, expect, it } from 'vitest';
import { Lane, type Queued, type Ready } from './delivery-lane.js';

const queued = (n: number): Queued[] => Array.from({ length: n }, (_, i) => ({ deliveryId: `whd_${i}`, done: () => undefined }));
const readyOf = (qs: Queued[]): Ready[] =>
  qs.map((q) => ({ queued: q, endpoint: undefined, state: { id: q.deliveryId, endpointId: 'we_1', eventId: 'evt', eventType: 't', isTest: false, maxAttempts: 3, attempt: 0, nextAttemptAt: 0, rawBody: '{}' } }));

describe('Lane', () => {
  it('a claim covers the window beyond those ready, and only one claim is written at a time', () => {
    const lane = new Lane('we_1', 4);
    for (const q of queued(10)) lane.push(q);
    expect(lane.claim).toBe('none');
    expect(lane.wantsClaim).toBe(true);
    const batch = lane.beginClaim();
    expect(batch.map((q) => q.deliveryId)).toEqual(['whd_0', 'whd_1', 'whd_2', 'whd_3']);
    expect(lane.claim).toBe('writing');
    expect(lane.wantsClaim).toBe(false);
    expect(() => lane.beginClaim()).toThrow(/while one is writing/);
    lane.endClaim(readyOf(batch));
    expect(lane.claim).toBe('none');
    expect(() => lane.endClaim([])).toThrow(/none was being written/);
    expect(lane).toMatchObject({ readyCount: 4, waitingCount: 6 });
  });

  it('claims again only once half a window of ready attempts has started', () => {
    const lane = new Lane('we_1', 4);
    for (const q of queued(10)) lane.push(q);
    lane.endClaim((lane.beginClaim(), readyOf(queued(4))));
    expect(lane.wantsClaim).toBe(false);
    expect(lane.startNext()).toBeDefined();
    expect(lane.wantsClaim).toBe(false);
    expect(lane.startNext()).toBeDefined();
    expect(lane.wantsClaim).toBe(true);
    expect(lane.beginClaim()).toHaveLength(2);
  });

  it('never has more than its window in flight, and a free with none in flight is a bug', () => {
    const lane = new Lane('we_1', 2);
    const batch = (lane.push(queued(1)[0]!), lane.beginClaim());
    lane.endClaim(readyOf([...batch, ...queued(2)]));
    expect(lane.startNext()).toBeDefined();
    expect(lane.startNext()).toBeDefined();
    expect(lane.startNext()).toBeUndefined();
    expect(lane.inFlight).toBe(2);
    lane.free();
    expect(lane.startNext()).toBeDefined();
    lane.free();
    lane.free();
    expect(lane.inFlight).toBe(0);
    expect(() => lane.free()).toThrow(/none in flight/);
  });

  it('is finished only with nothing waiting, ready, claimed nor in flight; drain takes what no attempt runs for', () => {
    const lane = new Lane('we_1', 2);
    expect(lane.finished).toBe(true);
    for (const q of queued(5)) lane.push(q);
    expect(lane.finished).toBe(false);
    const batch = lane.beginClaim();
    expect(lane.drain().map((q) => q.deliveryId)).toEqual(['whd_2', 'whd_3', 'whd_4']);
    expect(lane.finished).toBe(false); // the claim is still being written
    lane.endClaim(readyOf(batch));
    lane.startNext();
    expect(lane.drain().map((q) => q.deliveryId)).toEqual(['whd_1']);
    expect(lane.finished).toBe(false); // one attempt in flight
    lane.free();
    expect(lane.finished).toBe(true);
  });

  it('keeps the order queued across a long backlog (the consumed front is dropped now and then)', () => {
    const lane = new Lane('we_1', 64);
    const all = queued(5000);
    for (const q of all) lane.push(q);
    const seen: string[] = [];
    while (lane.wantsClaim) {
      const batch = lane.beginClaim();
      seen.push(...batch.map((q) => q.deliveryId));
      lane.endClaim([]);
    }
    expect(seen).toEqual(all.map((q) => q.deliveryId));
    expect(lane.finished).toBe(true);
  });
});
