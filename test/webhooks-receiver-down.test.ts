// Receiver down: two proofs that an unlucky receiver loses nothing.
// 1. An endpoint whose receiver answers 500 for 12 h of service clock, then refuses connections for
//    12 h more, then recovers: every attempt follows the retry schedule of the spec (spec: Delivery;
//    contract §10: first attempt at once, then 30s, 2m, 10m, 30m, 1h, 3h, 6h, 12h, each sent at the
//    next 5-minute tick), 24 h of failures do not disable it (spec: Webhook endpoint states: ≥ 50
//    consecutive failures AND a streak ≥ 72 h old), and after the recovery every event is
//    acknowledged exactly once. An event whose 9 attempts all fell inside the outage is abandoned as
//    the spec says ("9 attempts over about 23 hours, then abandoned"); it is recovered by the
//    documented manual retry (`POST /v1/webhooks/{id}/deliveries/{id}/retry`, `svc webhooks retry`).
// 2. `svc webhooks listen` (the built CLI, a real child process) SIGKILLed and restarted 10 times while
//    events keep coming forwards every event, in order, to a local handler (cli.md: its cursor file
//    makes "stopping and starting lose nothing").
// Loopback only (the service's delivery resolver and guard admit nothing else); bounded.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './helpers/cli.js';
import type { TestService } from './helpers/service.js';
import { advance, alignClock, createEndpoint, deliveries, emit, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { BACKOFF_MS, MAX_ATTEMPTS, tickAtOrAfter } from '../src/server/domain/webhooks/retry-schedule.js';
import { PAGE_LIMIT_MAX } from '../src/api/schemas/page.js';
import { FEED_LIMIT_MAX } from '../src/api/schemas/events.js';

const HOUR_S = 3600;
/** The outage: a receiver answering 500, then one refusing connections, each this long. */
const FAILING_500_HOURS = 12;
const REFUSING_HOURS = 12;
const OUTAGE_HOURS = FAILING_500_HOURS + REFUSING_HOURS;
/** After the recovery, long enough for the last event's last scheduled attempt (~23 h after it). */
const AFTER_RECOVERY_HOURS = 24;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function allDeliveries(svc: TestService, endpointId: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await svc.call('GET', `/v1/webhooks/${endpointId}/deliveries?limit=${PAGE_LIMIT_MAX}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    if (!res.body.hasMore) return out;
    cursor = res.body.nextCursor ?? res.body.cursor;
  }
}

describe('receiver down for 24 h of service clock, then back', () => {
  it('keeps the retry schedule, stays enabled, and every event is acknowledged exactly once after the recovery', async () => {
    const svc = await startWebhookService();
    cleanups.push(() => svc.stop());
    const first = await startReceiver(() => ({ status: 500 }));
    let failing: Receiver | undefined = first;
    cleanups.push(() => failing?.close());
    const port = first.port;
    const start = alignClock(svc, 10) + 10_000;
    const ep = await createEndpoint(svc, { url: first.url, events: ['message.status'] });

    // One event an hour through the outage, each sent at once (contract §10) and then retried by ticks.
    const events: Array<{ id: string; at: number }> = [];
    let refusingFrom = 0;
    for (let h = 0; h < OUTAGE_HOURS; h++) {
      if (h === FAILING_500_HOURS) {
        // From here on nothing listens on the port: every attempt is a refused connection.
        await first.close();
        failing = undefined;
        refusingFrom = svc.now();
      }
      const e = await emit(svc, 'message.status', { messageId: `msg_down_${h}`, status: 'delivered', reason: null });
      events.push({ id: e.id, at: svc.now() });
      await svc.flushWebhooks();
      await advance(svc, HOUR_S);
    }
    const recoveredAt = svc.now();
    expect(recoveredAt).toBe(start + OUTAGE_HOURS * HOUR_S * 1000);

    // 24 h of failures: far more than 50 in a row, and still enabled (the streak is not 72 h old).
    const during = await allDeliveries(svc, ep.id);
    expect(during.length).toBe(events.length);
    const failedAttempts = during.flatMap((d) => d.attempts).filter((a: any) => a.outcome === 'failed');
    expect(failedAttempts.length).toBeGreaterThanOrEqual(50);
    expect(during.flatMap((d) => d.attempts).every((a: any) => a.outcome === 'failed')).toBe(true);
    const endpoint = await svc.call('GET', `/v1/webhooks/${ep.id}`);
    expect(endpoint.body).toMatchObject({ enabled: true, disabledAt: null });

    // The receiver is back on the same address and acknowledges everything.
    const back = await startReceiver(() => ({ status: 200 }), { port });
    cleanups.push(() => back.close());
    await advance(svc, AFTER_RECOVERY_HOURS * HOUR_S);

    // Every attempt of every delivery is where the schedule puts it: the first at the event, each
    // next one its backoff after the previous, on the following 5-minute tick; failures before the
    // recovery (500 first, then a refused connection), the first attempt after it succeeds, and
    // nothing more is sent. Events whose 9 attempts all fell inside the outage are abandoned.
    const log = await allDeliveries(svc, ep.id);
    expect(log.length).toBe(events.length);
    const byEvent = new Map(log.map((d) => [d.eventId as string, d]));
    const abandoned: any[] = [];
    for (const e of events) {
      const d = byEvent.get(e.id);
      expect(d, `a delivery of ${e.id}`).toBeDefined();
      const at = d.attempts.map((a: any) => Date.parse(a.at));
      const expected = [e.at];
      while (expected.length < MAX_ATTEMPTS && expected.at(-1)! < recoveredAt) expected.push(tickAtOrAfter(expected.at(-1)! + BACKOFF_MS[expected.length - 1]!));
      expect(at, `attempt times of ${e.id}`).toEqual(expected);
      d.attempts.forEach((a: any, i: number) => {
        if (at[i]! < refusingFrom) expect(a, `attempt ${i + 1} of ${e.id}`).toMatchObject({ outcome: 'failed', responseStatus: 500 });
        else if (at[i]! < recoveredAt) expect(a, `attempt ${i + 1} of ${e.id}`).toMatchObject({ outcome: 'failed', responseStatus: null, error: expect.any(String) });
        else expect(a, `attempt ${i + 1} of ${e.id}`).toMatchObject({ outcome: 'succeeded', responseStatus: 200 });
      });
      if (at.at(-1)! < recoveredAt) {
        expect(d).toMatchObject({ status: 'abandoned', attempt: MAX_ATTEMPTS, nextAttemptAt: null });
        abandoned.push(d);
      } else {
        expect(d).toMatchObject({ status: 'succeeded' });
      }
    }
    // Both kinds happened: the oldest events ran out of attempts, the rest were delivered by schedule.
    expect(abandoned.length).toBeGreaterThan(0);
    expect(abandoned.length).toBeLessThan(events.length);

    // The abandoned ones, retried by hand as the spec offers, are delivered too.
    for (const d of abandoned) {
      const res = await svc.call('POST', `/v1/webhooks/${ep.id}/deliveries/${d.id}/retry`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'succeeded', attempt: MAX_ATTEMPTS + 1, responseStatus: 200 });
    }

    // Every event acknowledged exactly once: the recovered receiver (the only one that answered 2xx)
    // got each event id once, and nothing else.
    const acked = back.received.map((r) => r.body?.id as string);
    expect(acked.length).toBe(events.length);
    expect([...acked].sort()).toEqual(events.map((e) => e.id).sort());
    // The feed holds them all, and no endpoint was disabled.
    const feed = await svc.call('GET', `/v1/events?limit=${FEED_LIMIT_MAX}&types=message.status,webhook_endpoint.disabled`);
    expect(feed.status).toBe(200);
    expect(feed.body.data.map((e: any) => e.id)).toEqual(events.map((e) => e.id));
    expect((await svc.call('GET', `/v1/webhooks/${ep.id}`)).body.enabled).toBe(true);
  }, 60_000);
});

describe('svc webhooks listen killed and restarted 10 times mid-stream', () => {
  beforeAll(() => assertBuilt());

  /** Kills with SIGKILL (no clean stop); each run forwards at least this many events first. */
  const KILLS = 10;
  const FORWARDS_PER_RUN = 3;
  /** One event per this many ms keeps coming while the listener is killed and restarted. */
  const STREAM_EVERY_MS = 100;
  // Bounds against a hang, not timings: 11 CLI processes start in turn (~15 s alone here); the
  // bounds leave room for a CI machine whose 2 cores are shared.
  const READY_TIMEOUT_MS = 30_000;
  const DRAIN_TIMEOUT_MS = 40_000;
  const TEST_TIMEOUT_MS = 120_000;

  it('forwards every event, in order, to the local handler', async () => {
    const svc = await startWebhookService();
    cleanups.push(() => svc.stop());
    // The handler takes a moment per event, so a kill can land between its answer and the saved cursor.
    const forwarded = new Set<string>();
    const handler = await startReceiver((r) => {
      forwarded.add(r.body?.id);
      return { status: 200, delayMs: 5 };
    });
    cleanups.push(() => handler.close());
    const home = mkdtempSync(join(tmpdir(), 'svc-listen-kill-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    // One config dir for every run: it holds the listen secret and the default cursor file.
    const env = { PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey };
    const children: ChildProcess[] = [];
    cleanups.push(() => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });

    const startListen = async () => {
      const child = spawn(process.execPath, [BIN_PATH, 'webhooks', 'listen', '--forward-to', handler.url, '--events', 'message.received', '-o', 'ndjson'], { env, cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let stderr = '';
      // Its stderr names the local signing secret: kept out of any failure message.
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d.replace(/whsec_\w+/g, 'whsec_[redacted]')));
      child.stdout!.resume();
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (!/^ready\b/m.test(stderr)) {
        if (child.exitCode !== null) throw new Error(`listen exited ${child.exitCode} before its ready line: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`no ready line from listen in ${READY_TIMEOUT_MS} ms: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return { child, exited };
    };
    const waitUntil = async (what: string, done: () => boolean, timeoutMs: number) => {
      const end = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    // The first run saves its starting cursor before `ready`; events start flowing after it.
    let run = await startListen();
    const emitted: string[] = [];
    let n = 0;
    // One emit after another: the order they were emitted in is then the feed's. Two emits in flight
    // at once have no order between them (on PostgreSQL the feed numbers events committed together
    // in insertion order, which their answers need not follow).
    let streaming = true;
    const streamed = (async () => {
      while (streaming) {
        emitted.push((await emit(svc, 'message.received', { messageId: `msg_l${++n}`, from: '+14155550123', to: '+14155550100', body: `event ${n}`, receivedAt: new Date().toISOString(), providerMessageId: `p${n}` })).id);
        await new Promise((r) => setTimeout(r, STREAM_EVERY_MS));
      }
    })();
    const stopStream = async () => {
      streaming = false;
      await streamed;
    };
    cleanups.push(stopStream);

    for (let k = 0; k < KILLS; k++) {
      const seen = handler.received.length;
      await waitUntil(`${FORWARDS_PER_RUN} forwards in run ${k + 1}`, () => handler.received.length >= seen + FORWARDS_PER_RUN, DRAIN_TIMEOUT_MS);
      run.child.kill('SIGKILL');
      expect((await run.exited).signal).toBe('SIGKILL');
      run = await startListen();
    }
    await stopStream();
    const all = [...emitted];
    expect(all.length).toBeGreaterThan(0);
    await waitUntil(`all ${all.length} events at the handler`, () => forwarded.size >= all.length, DRAIN_TIMEOUT_MS);
    expect(all.every((id) => forwarded.has(id))).toBe(true);
    // A clean stop at the end (Ctrl-C): exit 0.
    run.child.kill('SIGINT');
    expect((await run.exited).code).toBe(0);

    // Every event, in order: the first arrival of each id is the emitted order, and no forward ever
    // jumps ahead of the next event not yet forwarded (nothing skipped, even for a while).
    const ids = handler.received.map((r) => r.body?.id as string);
    const order = new Map(all.map((id, i) => [id, i]));
    const firsts = ids.filter((id, i) => ids.indexOf(id) === i);
    expect(firsts).toEqual(all);
    let highest = -1;
    for (const id of ids) {
      const i = order.get(id);
      expect(i, `forwarded ${id} was emitted`).toBeDefined();
      expect(i!, `${id} forwarded before the one after ${all[highest] ?? 'the start'}`).toBeLessThanOrEqual(highest + 1);
      highest = Math.max(highest, i!);
    }
    // At-least-once across kills: a repeat is only the event a kill cut off before its position was
    // saved, so at most one per kill.
    expect(ids.length - firsts.length).toBeLessThanOrEqual(KILLS);
    // Each forward is signed (the service's scheme, with the local secret) and names its event.
    expect(handler.received.every((r) => typeof r.headers['x-service-signature'] === 'string' && r.headers['service-event-id'] === r.body?.id)).toBe(true);
  }, TEST_TIMEOUT_MS);
});
