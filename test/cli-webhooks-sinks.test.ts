// `svc webhooks sink …`, `svc webhooks replay` and `svc events resend` in-process against the real
// local service (manual clock; deliveries reach loopback only): a sink made with flags, its retry
// scenario read back with `sink requests`, `sink requests --follow` printing a request as the sink
// receives it (a bounded wait on the output, never a sleep), replay printing how many, resend and
// the test key's refusal, flag errors by name, and delete.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { runSvc, expectOk, type RunSvcOptions } from './helpers/cli.js';
import { startRunning, stopAllRunning } from './helpers/long-running.js';
import { advance, alignClock, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';

let svc: TestService;
let receiver: Receiver;
type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });
const ok = expectOk;
const json = (text: string): any => JSON.parse(text);
let n = 0;

beforeAll(async () => {
  svc = await startWebhookService();
  receiver = await startReceiver();
});
afterEach(async () => {
  await stopAllRunning();
});
afterAll(async () => {
  await receiver?.close();
  await svc?.stop();
});

/** An inbound text to the test sender: one live `message.received`; its event id. */
async function inbound(): Promise<string> {
  const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550123', to: '+15005550006', body: `cli ${++n}` } });
  expect(res.status, res.text).toBe(201);
  return (await svc.call('GET', '/v1/events?order=desc&limit=1&types=message.received')).body.data[0].id;
}

describe('webhooks sink', () => {
  it('create with --fail-first shows a retry in `sink requests`: three attempts kept, 500, 500, 200, signatures verified', async () => {
    alignClock(svc, 10);
    const sink = json(ok(await svcRun(['webhooks', 'sink', 'create', '--fail-first', '2', '--events', 'message.received', '-o', 'json'])).stdout);
    expect(sink).toMatchObject({ respond: { status: 200, failFirst: 2, delayMs: 0 }, events: ['message.received'] });
    expect(sink.secret).toMatch(/^whsec_/);
    expect(sink.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/sinks/${sink.id}$`));

    const eventId = await inbound();
    await svc.flushWebhooks();
    await advance(svc, 300);
    await advance(svc, 300);
    const kept = json(ok(await svcRun(['webhooks', 'sink', 'requests', sink.id, '-o', 'json'])).stdout);
    expect(kept.map((r: any) => [r.eventId, r.attempt, r.answeredStatus, r.signatureValid])).toEqual([
      [eventId, 3, 200, true],
      [eventId, 2, 500, true],
      [eventId, 1, 500, true],
    ]);
    // For people: one row per request; on a narrow terminal the attempt, the answer and the signature's
    // verdict stay (the event id gives way first).
    const table = ok(await svcRun(['webhooks', 'sink', 'requests', sink.id], { tty: true })).stdout;
    expect(table).toMatch(/answered +verified/);
    expect(table).toMatch(/message\.received +3 +200 +true/);

    const listed = json(ok(await svcRun(['webhooks', 'sink', 'list', '-o', 'json'])).stdout);
    expect(listed.find((s: any) => s.id === sink.id)).toMatchObject({ received: 3, endpointId: sink.endpointId });
    const piped = ok(await svcRun(['webhooks', 'sink', 'list'])).stdout;
    expect(piped).toContain(`${sink.id}\t${sink.url}`);
  });

  it('`sink requests --follow` prints each request as the sink receives it, and stops on Ctrl-C with exit 0', async () => {
    const sink = json(ok(await svcRun(['webhooks', 'sink', 'create', '--respond', '202', '--events', 'message.received', '-o', 'json'])).stdout);
    const f = startRunning(['webhooks', 'sink', 'requests', sink.id, '--follow', '-o', 'ndjson'], { service: svc });
    // Nothing kept yet: nothing printed; then an event is delivered to the sink.
    const first = await inbound();
    await f.until(() => f.lines().length >= 1, 10_000, 'the first request');
    const second = await inbound();
    await f.until(() => f.lines().length >= 2, 10_000, 'the second request');
    const printed = f.lines().map((l) => JSON.parse(l));
    expect(printed.map((r) => [r.eventId, r.answeredStatus, r.signatureValid])).toEqual([
      [first, 202, true],
      [second, 202, true],
    ]);
    expect(JSON.parse(printed[0].body)).toMatchObject({ id: first, type: 'message.received' });
    const res = await f.stop();
    expect(res.code, res.stderr).toBe(0);

    // Started again, it prints what was kept first (oldest first), then follows.
    const again = startRunning(['webhooks', 'sink', 'requests', sink.id, '--follow', '--limit', '1'], { service: svc });
    await again.until(() => again.lines().length >= 1, 10_000, 'the newest kept request');
    expect(again.lines()[0]).toContain(second);
    const third = await inbound();
    await again.until(() => again.lines().length >= 2, 10_000, 'a new request');
    expect(again.lines()[1]).toContain(third);
    expect((await again.stop()).code).toBe(0);
  });

  it('flag errors name the flag (exit 2, nothing made); delete asks, or takes --yes, and takes the endpoint with it', async () => {
    const before = (await svc.call('GET', '/v1/sandbox/sinks')).body.data.length;
    for (const [args, flag] of [
      [['--respond', '99'], '--respond'],
      [['--fail-first', 'two'], '--fail-first'],
      [['--delay', '31s'], '--delay'],
      [['--delay', 'soon'], '--delay'],
      [['--events', ' , '], '--events'],
    ] as const) {
      const res = await svcRun(['webhooks', 'sink', 'create', ...args]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(flag);
    }
    expect((await svc.call('GET', '/v1/sandbox/sinks')).body.data.length).toBe(before);

    const sink = json(ok(await svcRun(['webhooks', 'sink', 'create', '--delay', '500ms', '-o', 'json'])).stdout);
    expect(sink.respond.delayMs).toBe(500);
    expect((await svcRun(['webhooks', 'sink', 'delete', sink.id])).code).toBe(2);
    ok(await svcRun(['webhooks', 'sink', 'delete', sink.id, '--yes']));
    expect((await svc.call('GET', `/v1/webhooks/${sink.endpointId}`)).status).toBe(404);
    expect((await svcRun(['webhooks', 'sink', 'requests', sink.id])).code).toBe(4);
  });
});

describe('webhooks replay and events resend', () => {
  it("replay --status failed after a receiver's outage prints how many, and delivers exactly those again", async () => {
    alignClock(svc, 10);
    let down = false;
    receiver.setHandler(() => ({ status: down ? 503 : 200 }));
    const ep = json(ok(await svcRun(['webhooks', 'create', '--url', receiver.url, '--events', 'message.received', '-o', 'json'])).stdout);
    const start = (await svc.call('GET', '/v1/events?after=now')).body.cursor as string;
    await inbound();
    await svc.flushWebhooks();
    down = true;
    const missed = [await inbound(), await inbound()];
    await svc.flushWebhooks();
    down = false;
    const seen = receiver.received.length;

    const said = ok(await svcRun(['webhooks', 'replay', '--endpoint', ep.id, '--status', 'failed'], { tty: true })).stdout;
    expect(said).toBe(`replayed 2 events to ${ep.id}: new deliveries, sent now (svc webhooks deliveries ${ep.id})\n`);
    await svc.flushWebhooks();
    expect(receiver.received.slice(seen).map((r) => r.body.id).sort()).toEqual([...missed].sort());
    // Piped: the number alone; -o json: the API's answer. Nothing failed is left.
    expect(ok(await svcRun(['webhooks', 'replay', '--endpoint', ep.id, '--status', 'failed'])).stdout).toBe('0\n');
    // --since a cursor of the feed: the three events after it. A duration counts back from the
    // service clock: every message.received of the last hour, earlier tests' included.
    expect(json(ok(await svcRun(['webhooks', 'replay', '--endpoint', ep.id, '--since', start, '-o', 'json'])).stdout)).toEqual({ count: 3 });
    const hourAgo = svc.now() - 3600_000;
    const lastHour = (await svc.call('GET', '/v1/events?order=desc&limit=100&types=message.received')).body.data.filter((e: any) => Date.parse(e.createdAt) > hourAgo);
    expect(json(ok(await svcRun(['webhooks', 'replay', '--endpoint', ep.id, '--since', '1h', '-o', 'json'])).stdout)).toEqual({ count: lastHour.length });
    await svc.flushWebhooks();
    ok(await svcRun(['webhooks', 'delete', ep.id, '--yes']));
  });

  it('resend prints the new deliveries; a test key cannot resend a live event (exit 3, forbidden)', async () => {
    receiver.setHandler(() => ({ status: 200 }));
    const ep = json(ok(await svcRun(['webhooks', 'create', '--url', receiver.url, '--events', 'message.received', '-o', 'json'])).stdout);
    const [a, b] = [await inbound(), await inbound()];
    await svc.flushWebhooks();
    // Taken first: the worker sends what a resend wrote as soon as it has committed.
    const seen = receiver.received.length;
    const resent = json(ok(await svcRun(['events', 'resend', a, b, '--endpoint', ep.id, '-o', 'json'])).stdout);
    expect(resent.map((d: any) => [d.eventId, d.endpointId, d.status])).toEqual([
      [a, ep.id, 'pending'],
      [b, ep.id, 'pending'],
    ]);
    await svc.flushWebhooks();
    expect(receiver.received.slice(seen).map((r) => r.body.id).sort()).toEqual([a, b].sort());

    const refused = await svcRun(['events', 'resend', a], { key: svc.bootstrap.testKey });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/live/);
    ok(await svcRun(['webhooks', 'delete', ep.id, '--yes']));
  });
});
