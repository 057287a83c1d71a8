// Crash: the BUILT service as a real child process on 127.0.0.1, a burst of test sends
// (each with its own Idempotency-Key, many in flight), SIGKILL mid-burst, a restart on the same data
// dir (a new port), then: every 201 is stored once and readable, its message.status events are in
// the feed, deliveries resume (the loopback receiver gets every one of them, and each is recorded as
// succeeded), the acknowledged keys replay, and the unacknowledged keys create exactly once.
// What it proves: contract §2 (idempotency) and §10 (the outbox: "a crash after 201 loses nothing;
// a restart resumes due deliveries"); a 201 is only written after the group COMMIT
// (the SQLite store's group commit, storage/sqlite/store.ts), so a kill can lose an answer, never an answered write.
// Bounded (a deadline per phase and for the whole); every socket is on loopback.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { assertBuilt } from './helpers/cli.js';
import { all, client, fixtureService, killAll, pool as poolOf, startChild, until, START_TIMEOUT_MS, type Call, type Child } from './helpers/service-child.js';
import { startReceiver, type Receiver } from './webhooks-receiver.js';
import { liveNumber } from './messages-fixtures.js';
import { FEED_LIMIT_MAX } from '../src/api/schemas/events.js';
import { PAGE_LIMIT_MAX } from '../src/api/schemas/page.js';

/** Sends in the burst, how many are in flight at once, and how many 201s before the kill. */
const BURST = 400;
const IN_FLIGHT = 32;
const KILL_AFTER_ACKS = 100;
/** The receiver's answer time before the kill: slower than the burst, so a backlog builds. */
const RECEIVER_DELAY_MS = 1000;
/**
 * Bounds against a hang, not timings: how long the deliveries may take to drain, and the whole
 * test (the start's bound is START_TIMEOUT_MS). Alone it takes ~15-20 s here; the bounds leave room for a CI machine
 * whose 2 cores are shared with other test files and processes.
 */
const DRAIN_TIMEOUT_MS = 40_000;
const TEST_TIMEOUT_MS = 120_000;

/** Runs `fn` over `items`, IN_FLIGHT at a time. */
const pool = <T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> => poolOf(items, IN_FLIGHT, fn);

describe('crash: SIGKILL mid-burst, restart on the same data', () => {
  let dataDir: string;
  let receiver: Receiver;
  const children: Child[] = [];
  const agents: Agent[] = [];

  beforeAll(async () => {
    assertBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    // Slow before the kill (its lane keeps at most a window of attempts in flight), so a backlog of
    // deliveries is still queued and in flight when the kill comes.
    receiver = await startReceiver(() => ({ status: 200, delayMs: RECEIVER_DELAY_MS }));
  });

  afterAll(async () => {
    killAll(children);
    await Promise.all(agents.map((a) => a.destroy()));
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no answered send, duplicates none, and resumes every delivery', async () => {
    // --- before the crash: a test number and an endpoint subscribed to message.status ----------
    const first = await startChild(dataDir);
    children.push(first);
    const agent1 = new Agent({ connections: IN_FLIGHT });
    agents.push(agent1);
    const live1 = client(first.baseUrl, first.liveKey, agent1);
    const test1 = client(first.baseUrl, first.testKey, agent1);
    const found = await test1('POST', '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 5 });
    expect(found.status).toBe(200);
    expect(found.body.data.length).toBeGreaterThan(0);
    const number = await test1('POST', '/v1/numbers/buy', { phoneNumber: found.body.data[0].phoneNumber });
    expect(number.status).toBe(201);
    const endpoint = await live1('POST', '/v1/webhooks', { url: receiver.url, events: ['message.status'] });
    expect(endpoint.status).toBe(201);

    // Each request's body is a function of its index, so a retry sends the same body with the same key.
    const sendBody = (i: number) => ({ from: number.body.phoneNumber, to: `+1415${String(3_000_000 + i).padStart(7, '0')}`, body: `Crash proof ${i}` });
    const keyOf = (i: number) => `crash-${i}`;

    // --- the burst, killed once KILL_AFTER_ACKS sends have been answered 201 ------------------
    const acked = new Map<number, string>(); // index → message id of its 201
    const unanswered = new Set<number>(); // sent, no answer (the kill cut it off), or never sent
    let next = 0;
    let killed = false;
    let cutOff = 0; // sent before the kill, answer never came
    const kill = () => {
      if (killed) return;
      killed = true;
      first.proc.kill('SIGKILL');
    };
    const worker = async () => {
      while (next < BURST) {
        const i = next++;
        if (killed) {
          unanswered.add(i);
          continue;
        }
        let res: Call;
        try {
          res = await test1('POST', '/v1/messages', sendBody(i), { 'idempotency-key': keyOf(i) });
        } catch (err) {
          if (!killed) throw err;
          unanswered.add(i);
          cutOff++;
          continue;
        }
        // Any answer that arrives is a 201: a 5xx here would be a defect of its own.
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        acked.set(i, res.body.id);
        if (acked.size >= KILL_AFTER_ACKS) kill();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const death = await first.exited;
    expect(death.signal).toBe('SIGKILL');
    // The kill came mid-burst: answers were cut off, and requests were still to come.
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(cutOff).toBeGreaterThan(0);
    expect(unanswered.size).toBeGreaterThan(cutOff);
    expect(acked.size + unanswered.size).toBe(BURST);
    await agent1.destroy();

    // Events committed before the kill whose delivery was not yet acknowledged: they must come after the restart.
    const arrivedBeforeKill = new Set(receiver.received.map((r) => r.body?.id as string));
    receiver.setHandler(() => ({ status: 200 }));

    // --- restart on the same data dir, a new port -----------------------------------------------
    const restartedAt = Date.now();
    const second = await startChild(dataDir);
    children.push(second);
    // Port 0 again: wherever it listens now, clients find it by its printed address.
    expect(second.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(second.testKey).toBe(first.testKey);
    const agent2 = new Agent({ connections: IN_FLIGHT });
    agents.push(agent2);
    const live2 = client(second.baseUrl, second.liveKey, agent2);
    const test2 = client(second.baseUrl, second.testKey, agent2);

    // Every 201 is stored: its id reads back, with the body that was sent.
    const ackedEntries = [...acked.entries()];
    expect(ackedEntries.length).toBeGreaterThan(0);
    await pool(ackedEntries, async ([i, id]) => {
      const got = await test2('GET', `/v1/messages/${id}`);
      expect(got.status, `message ${id} of send ${i}`).toBe(200);
      expect(got.body.body).toBe(sendBody(i).body);
    });

    // The acknowledged keys replay: the same id, marked replayed, nothing new.
    await pool(ackedEntries, async ([i, id]) => {
      const again = await test2('POST', '/v1/messages', sendBody(i), { 'idempotency-key': keyOf(i) });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(id);
    });

    // The unacknowledged keys create exactly once: the first retry answers 201 (a fresh create, or a
    // replay when the kill cut off only the answer), a second retry replays that same id.
    const retried = new Map<number, string>();
    await pool([...unanswered], async (i) => {
      const once = await test2('POST', '/v1/messages', sendBody(i), { 'idempotency-key': keyOf(i) });
      expect(once.status, JSON.stringify(once.body)).toBe(201);
      const twice = await test2('POST', '/v1/messages', sendBody(i), { 'idempotency-key': keyOf(i) });
      expect(twice.status).toBe(201);
      expect(twice.headers['idempotent-replayed']).toBe('true');
      expect(twice.body.id).toBe(once.body.id);
      retried.set(i, once.body.id);
    });
    expect(retried.size).toBe(unanswered.size);

    // Stored once: the account holds exactly one message per key, and they are the answered ids.
    const expectedIds = new Set([...acked.values(), ...retried.values()]);
    expect(expectedIds.size).toBe(BURST);
    const stored = await all(test2, '/v1/messages', PAGE_LIMIT_MAX, 'cursor');
    expect(stored.length).toBe(BURST);
    expect(new Set(stored.map((m) => m.id))).toEqual(expectedIds);

    // Their events are in the feed: at least one message.status per stored message, each event once.
    const feed = await all(test2, '/v1/events?types=message.status', FEED_LIMIT_MAX, 'after');
    expect(feed.length).toBeGreaterThanOrEqual(BURST);
    const feedIds = new Set(feed.map((e) => e.id as string));
    expect(feedIds.size).toBe(feed.length);
    const withEvents = new Set(feed.map((e) => e.messageId as string));
    for (const id of expectedIds) expect(withEvents.has(id), `an event for message ${id}`).toBe(true);

    // Deliveries resumed: the receiver gets every message.status event at least once (duplicates are
    // allowed: at-least-once, an attempt the kill cut off is sent again) ...
    const receivedIds = () => new Set(receiver.received.map((r) => r.body?.id as string));
    await until(`${feedIds.size} events at the receiver`, () => [...feedIds].every((id) => receivedIds().has(id)), DRAIN_TIMEOUT_MS);
    // Among them, events committed before the kill and first received after the restart: the
    // resumed backlog (the slow receiver guarantees there is one).
    const ackedIds = new Set(acked.values());
    const resumed = receiver.received.filter((r) => r.at >= restartedAt && !arrivedBeforeKill.has(r.body?.id) && ackedIds.has(r.body?.messageId));
    expect(resumed.length).toBeGreaterThan(0);
    // ... and the service records each acknowledged delivery: one per event, every one succeeded.
    let log: any[] = [];
    await until(
      'every delivery recorded as succeeded',
      async () => {
        log = await all(live2, `/v1/webhooks/${endpoint.body.id}/deliveries`, PAGE_LIMIT_MAX, 'cursor');
        return log.length === feedIds.size && log.every((d) => d.status === 'succeeded');
      },
      DRAIN_TIMEOUT_MS,
    );
    expect(new Set(log.map((d) => d.eventId))).toEqual(feedIds);
    // Nothing was delivered that the feed does not hold (no event of an unanswered, uncommitted send).
    for (const id of receivedIds()) expect(feedIds.has(id), `received event ${id} is in the feed`).toBe(true);
  }, TEST_TIMEOUT_MS);
});

// `kill -9` during a `clock advance` that was delivering. An advance that saved the clock only at
// its end would let the restart find it behind the deliveries the advance had committed: nothing
// would resume, and the next advance would run their first attempts one at a time. So the clock is
// saved in the transaction of each job the advance runs, and a start resumes every due delivery
// through the lanes (a window of attempts in flight per endpoint).
describe('crash: SIGKILL mid clock advance, restart on the same data', () => {
  /** Live sends whose carrier steps (each a job) emit message.status inside the advance. */
  const SENDS = 120;
  /** Receipts during the advance before the kill: the advance is then waiting on attempts. */
  const KILL_AFTER_RECEIPTS = 20;
  let dataDir: string;
  let receiver: Receiver;
  const children: Child[] = [];
  const agents: Agent[] = [];

  beforeAll(async () => {
    assertBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-advance-'));
    receiver = await startReceiver();
  });

  afterAll(async () => {
    killAll(children);
    await Promise.all(agents.map((a) => a.destroy()));
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the clock at or past every committed event, resumes the deliveries at once and concurrently, loses and doubles nothing', async () => {
    // --- before the crash: a live number, an endpoint, sends queued on the manual clock ----------
    const first = await startChild(dataDir, 'manual');
    children.push(first);
    const agent1 = new Agent({ connections: IN_FLIGHT });
    agents.push(agent1);
    const live1 = client(first.baseUrl, first.liveKey, agent1);
    const number = await liveNumber(fixtureService(first, agent1));
    const endpoint = await live1('POST', '/v1/webhooks', { url: receiver.url, events: ['message.status'] });
    expect(endpoint.status).toBe(201);
    const sendIds: string[] = [];
    await pool(
      Array.from({ length: SENDS }, (_, i) => i),
      async (i) => {
        const sent = await live1('POST', '/v1/messages', { from: number.phoneNumber, to: `+1415${String(4_000_000 + i).padStart(7, '0')}`, body: `Advance crash ${i}` });
        expect(sent.status, JSON.stringify(sent.body)).toBe(201);
        sendIds.push(sent.body.id);
      },
    );
    const clockBefore = Date.parse((await live1('GET', '/v1/sandbox/clock')).body.now);

    // --- the advance, with a slow receiver; killed once it is delivering --------------------------
    receiver.setHandler(() => ({ status: 200, delayMs: RECEIVER_DELAY_MS }));
    const receiptsBefore = receiver.received.length;
    let advanceAnswered = false;
    const advancing = live1('POST', '/v1/sandbox/clock/advance', { seconds: 60 }).then(
      () => (advanceAnswered = true),
      () => undefined, // cut off by the kill
    );
    await until('deliveries during the advance', () => receiver.received.length - receiptsBefore >= KILL_AFTER_RECEIPTS, START_TIMEOUT_MS);
    first.proc.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await advancing;
    expect(advanceAnswered, 'the kill came while the advance was still running').toBe(false);
    await agent1.destroy();

    // A new receiver on the same port: it counts how many attempts arrive at once after the restart.
    const port = receiver.port;
    const beforeKill = receiver.received.map((r) => r.body?.id as string);
    await receiver.close();
    const RESUMED_DELAY_MS = 300;
    receiver = await startReceiver(() => ({ status: 200, delayMs: RESUMED_DELAY_MS }), { port });

    // --- restart: the clock is not behind anything committed --------------------------------------
    const restartedAt = Date.now();
    const second = await startChild(dataDir, 'manual');
    children.push(second);
    const agent2 = new Agent({ connections: IN_FLIGHT });
    agents.push(agent2);
    const live2 = client(second.baseUrl, second.liveKey, agent2);
    const clockAfter = Date.parse((await live2('GET', '/v1/sandbox/clock')).body.now);
    const committed = await all(live2, '/v1/events?types=message.status', FEED_LIMIT_MAX, 'after');
    expect(committed.length, 'the advance committed events before the kill').toBeGreaterThan(0);
    const latestCommitted = Math.max(...committed.map((e) => Date.parse(e.createdAt)));
    expect(latestCommitted).toBeGreaterThan(clockBefore);
    expect(clockAfter, 'service time is not behind the latest committed event').toBeGreaterThanOrEqual(latestCommitted);
    const log0 = await all(live2, `/v1/webhooks/${endpoint.body.id}/deliveries`, PAGE_LIMIT_MAX, 'cursor');
    for (const d of log0) if (d.nextAttemptAt) expect(Date.parse(d.createdAt)).toBeLessThanOrEqual(clockAfter);
    const pendingAtStart = log0.filter((d) => d.status === 'pending').length;
    expect(pendingAtStart, 'deliveries the kill left pending').toBeGreaterThan(0);

    // --- without another advance, every committed event reaches the receiver, many at once --------
    const committedIds = new Set(committed.map((e) => e.id as string));
    const receivedIds = () => new Set([...beforeKill, ...receiver.received.map((r) => r.body?.id as string)]);
    await until('the committed events at the receiver', () => [...committedIds].every((id) => receivedIds().has(id)), DRAIN_TIMEOUT_MS);
    await until(
      'the pending deliveries recorded as succeeded',
      async () => (await all(live2, `/v1/webhooks/${endpoint.body.id}/deliveries`, PAGE_LIMIT_MAX, 'cursor')).every((d) => d.status === 'succeeded'),
      DRAIN_TIMEOUT_MS,
    );
    const drainedMs = Date.now() - restartedAt;
    expect(receiver.maxOpen, 'resumed attempts are in flight together, not one by one').toBeGreaterThan(1);
    // One at a time, the pending ones would take pendingAtStart × RESUMED_DELAY_MS at least.
    console.log(`crash mid-advance: ${committed.length} events committed, ${pendingAtStart} deliveries pending at restart, drained in ${drainedMs} ms, at most ${receiver.maxOpen} in flight`);

    // --- the rest of the advance: every send ends, each status reported once, each event delivered -
    const rest = await live2('POST', '/v1/sandbox/clock/advance', { seconds: 60 });
    expect(rest.status).toBe(200);
    const feed = await all(live2, '/v1/events?types=message.status', FEED_LIMIT_MAX, 'after');
    const feedIds = new Set(feed.map((e) => e.id as string));
    expect(feedIds.size, 'each event once in the feed').toBe(feed.length);
    const perStatus = new Map<string, number>();
    for (const e of feed) perStatus.set(`${e.messageId}/${e.status}`, (perStatus.get(`${e.messageId}/${e.status}`) ?? 0) + 1);
    expect([...perStatus.values()].every((n) => n === 1), 'no status reported twice for a message').toBe(true);
    for (const id of sendIds) {
      const m = await live2('GET', `/v1/messages/${id}`);
      expect(m.body.status).toBe('delivered');
      expect(perStatus.get(`${id}/delivered`)).toBe(1);
    }
    await until('every event at the receiver', () => [...feedIds].every((id) => receivedIds().has(id)), DRAIN_TIMEOUT_MS);
    let log: any[] = [];
    await until(
      'one succeeded delivery per event',
      async () => {
        log = await all(live2, `/v1/webhooks/${endpoint.body.id}/deliveries`, PAGE_LIMIT_MAX, 'cursor');
        return log.length === feedIds.size && log.every((d) => d.status === 'succeeded');
      },
      DRAIN_TIMEOUT_MS,
    );
    expect(new Set(log.map((d) => d.eventId))).toEqual(feedIds);
    for (const id of receivedIds()) expect(feedIds.has(id), `received event ${id} is in the feed`).toBe(true);
  }, TEST_TIMEOUT_MS);
});
