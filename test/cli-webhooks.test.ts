// `svc webhooks …` and `svc trigger webhook_endpoint.disabled` in-process against the real local
// service (manual clock; deliveries can only reach loopback) and real node:http receivers on
// 127.0.0.1: every verb's happy path and exit codes, `tail` following a retry, and `listen`
// forwarding signed events in order, retrying without skipping, routing, and resuming.
import { existsSync, mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { runSvc, type CliResult, type RunSvcOptions, expectOk } from './helpers/cli.js';
import { startRunning, stopAllRunning } from './helpers/long-running.js';
import { advance, emit, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { verifyWebhookSignature } from '../src/webhooks/verify.js';
import { createTestIO } from '../src/output/io.js';

let svc: TestService;
let tmp: string;
const receivers: Receiver[] = [];

type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });
const ok = expectOk;
const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');
const jsonLines = (text: string): any[] => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
async function createWithCli(url: string, extra: string[] = []): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  return JSON.parse(ok(await svcRun(['webhooks', 'create', '--url', url, ...extra, '-o', 'json'])).stdout);
}
let n = 0;
const received = () => emit(svc, 'message.received', { messageId: `msg_w${++n}`, from: '+14155550123', to: '+14155550100', body: `héllo ✓ ${n}`, receivedAt: new Date().toISOString(), providerMessageId: `p${n}` });
const emailSent = () => emit(svc, 'email.sent', { emailId: `eml_${++n}`, recipient: 'a@example.com', recipientKind: 'to', status: 'sent' });
/** A fresh config dir: the listen secret and default cursor files live there. */
const configDir = () => mkdtempSync(join(tmp, 'config-'));

beforeAll(async () => {
  svc = await startWebhookService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-webhooks-'));
});

afterEach(async () => {
  await stopAllRunning();
  // Endpoints of one test must not receive the next test's events.
  for (const ep of (await svc.call('GET', '/v1/webhooks')).body.data) await svc.call('DELETE', `/v1/webhooks/${ep.id}`);
  await svc.deps.webhooks.flush();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('webhooks create, list, get, update, delete', () => {
  it('create prints the endpoint with its secret once (and a notice on stderr); list, get, update, delete', async () => {
    const rx = await receiver();
    const res = ok(await svcRun(['webhooks', 'create', '--url', rx.url, '--events', 'message.*,call.completed', '--description', 'sms handler', '-o', 'json']));
    const ep = JSON.parse(res.stdout);
    expect(ep).toMatchObject({ id: expect.stringMatching(/^we_/), url: rx.url, events: ['message.*', 'call.completed'], enabled: true, description: 'sms handler' });
    expect(ep.secret).toMatch(/^whsec_/);
    expect(res.stderr).toContain('Save the signing secret now');

    const listed = JSON.parse(ok(await svcRun(['webhooks', 'list', '-o', 'json'])).stdout);
    expect(listed.map((e: any) => e.id)).toContain(ep.id);
    expect(JSON.stringify(listed)).not.toContain(ep.secret);
    const got = JSON.parse(ok(await svcRun(['webhooks', 'get', ep.id])).stdout);
    expect(got).toMatchObject({ id: ep.id, url: rx.url });
    expect(got.secret).toBeUndefined();
    const table = ok(await svcRun(['webhooks', 'list'], { tty: true })).stdout;
    expect(table).toContain(ep.id);

    const updated = JSON.parse(ok(await svcRun(['webhooks', 'update', ep.id, '--events', '*', '--description', '', '-o', 'json'])).stdout);
    expect(updated).toMatchObject({ events: ['*'], description: null });
    const disabled = JSON.parse(ok(await svcRun(['webhooks', 'update', ep.id, '--disable', '-o', 'json'])).stdout);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'manual' });
    const enabled = JSON.parse(ok(await svcRun(['webhooks', 'update', ep.id, '--enable', '-o', 'json'])).stdout);
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });

    // delete asks first: no terminal and no --yes is exit 2 naming --yes, nothing deleted.
    const refused = await svcRun(['webhooks', 'delete', ep.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    ok(await svcRun(['webhooks', 'get', ep.id]));
    const deleted = ok(await svcRun(['webhooks', 'delete', ep.id, '--yes']));
    expect(deleted.stderr).toContain(`deleted ${ep.id}`);
    expect((await svcRun(['webhooks', 'get', ep.id])).code).toBe(4);
  });

  it('errors: a bad URL is exit 2 naming the field; an unknown id exit 4; nothing to update exit 2', async () => {
    const notUrl = await svcRun(['webhooks', 'create', '--url', 'not a url']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('--url');
    // The service's rules: a private address, or http to a public host, come back on body.url.
    for (const url of ['https://10.1.2.3/hook', 'http://example.com/hook']) {
      const refused = await svcRun(['webhooks', 'create', '--url', url]);
      expect(refused.code, url).toBe(2);
      expect(refused.stderr, url).toContain('body.url');
    }
    const badEvents = await svcRun(['webhooks', 'create', '--url', 'http://127.0.0.1:1/x', '--events', 'message.nope']);
    expect(badEvents.code).toBe(2);
    expect(badEvents.stderr).toContain('body.events');
    expect(JSON.parse(ok(await svcRun(['webhooks', 'list', '-o', 'json'])).stdout)).toEqual([]);

    for (const args of [['get', 'we_nope'], ['update', 'we_nope', '--enable'], ['delete', 'we_nope', '--yes'], ['test', 'we_nope'], ['rotate-secret', 'we_nope', '--yes'], ['deliveries', 'we_nope'], ['retry', 'we_nope', 'whd_nope'], ['tail', 'we_nope']]) {
      const res = await svcRun(['webhooks', ...args], { waitForInterrupt: () => new Promise(() => undefined) });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(4);
      expect(res.stderr).toContain('not_found');
    }
    const ep = await createWithCli('http://127.0.0.1:1/x');
    const nothing = await svcRun(['webhooks', 'update', ep.id]);
    expect(nothing.code).toBe(2);
    const both = await svcRun(['webhooks', 'update', ep.id, '--enable', '--disable']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--disable');
    const badUrl = await svcRun(['webhooks', 'update', ep.id, '--url', 'https://169.254.169.254/latest']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('body.url');
  });
});

describe('webhooks test, rotate-secret, deliveries, retry', () => {
  it('test sends a signed sample; rotate-secret asks first and signs from then on with the new secret; a failing receiver is exit 1', async () => {
    const rx = await receiver();
    const ep = await createWithCli(rx.url);
    const delivery = JSON.parse(ok(await svcRun(['webhooks', 'test', ep.id, '-o', 'json'])).stdout);
    expect(delivery).toMatchObject({ eventType: 'webhook_endpoint.test', status: 'succeeded', responseStatus: 200, attempt: 1 });
    expect(verifyWebhookSignature(rx.received[0]!.rawBody, rx.received[0]!.headers['x-service-signature'] as string, ep.secret)).toBe(true);

    const refused = await svcRun(['webhooks', 'rotate-secret', ep.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const rotated = ok(await svcRun(['webhooks', 'rotate-secret', ep.id, '--yes', '-o', 'json']));
    const fresh = JSON.parse(rotated.stdout).secret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(ep.secret);
    expect(rotated.stderr).toContain('Save the signing secret now');
    ok(await svcRun(['webhooks', 'test', ep.id]));
    const sig = rx.received[1]!.headers['x-service-signature'] as string;
    expect(verifyWebhookSignature(rx.received[1]!.rawBody, sig, fresh)).toBe(true);
    expect(verifyWebhookSignature(rx.received[1]!.rawBody, sig, ep.secret)).toBe(false);

    rx.setHandler(() => ({ status: 503, body: 'down' }));
    const failed = await svcRun(['webhooks', 'test', ep.id, '-o', 'json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'abandoned', responseStatus: 503 });
    expect(failed.stderr).toContain('HTTP 503');
  });

  it('deliveries lists the log (--status filters); retry redelivers one now', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    const ep = await createWithCli(rx.url, ['--events', 'message.received']);
    const e1 = await received();
    await rx.waitFor(1);
    await svc.deps.webhooks.flush();
    rx.setHandler(() => ({ status: 200 }));
    const e2 = await received();
    await rx.waitFor(2);
    await svc.deps.webhooks.flush();

    const log = jsonLines(ok(await svcRun(['webhooks', 'deliveries', ep.id, '-o', 'ndjson'])).stdout);
    expect(log.map((d) => [d.eventId, d.status])).toEqual([[e2.id, 'succeeded'], [e1.id, 'failed']]);
    const failed = jsonLines(ok(await svcRun(['webhooks', 'deliveries', ep.id, '--status', 'failed', '-o', 'ndjson'])).stdout);
    expect(failed.map((d) => d.eventId)).toEqual([e1.id]);
    expect(failed[0]).toMatchObject({ attempt: 1, responseStatus: 500, nextAttemptAt: expect.any(String) });
    const piped = ok(await svcRun(['webhooks', 'deliveries', ep.id, '--limit', '1'])).stdout;
    expect(piped.split('\t')[0]).toBe(log[0].id);

    const retried = JSON.parse(ok(await svcRun(['webhooks', 'retry', ep.id, failed[0].id, '-o', 'json'])).stdout);
    expect(retried).toMatchObject({ id: failed[0].id, attempt: 2, status: 'succeeded', responseStatus: 200 });
    expect(rx.received.map((r) => [r.body.id, r.headers['service-delivery-attempt']])).toEqual([[e1.id, '1'], [e2.id, '1'], [e1.id, '2']]);
    // A disabled endpoint refuses a retry: conflict, exit 5.
    ok(await svcRun(['webhooks', 'update', ep.id, '--disable']));
    expect((await svcRun(['webhooks', 'retry', ep.id, failed[0].id])).code).toBe(5);
  });
});

describe('webhooks tail', () => {
  it("follows the delivery log: a new delivery's failed attempt, then its retry succeeding after the clock moves", async () => {
    const rx = await receiver((_r, i) => ({ status: i === 0 ? 500 : 200 }));
    const ep = await createWithCli(rx.url, ['--events', 'message.received']);
    // stderr a terminal: it says when its first read of the log is done (stdout stays NDJSON).
    const tail = startRunning(['webhooks', 'tail', ep.id, '--last', '0', '-o', 'ndjson'], { service: svc, io: createTestIO({ stderrTTY: true }) });
    await tail.until((_o, err) => err.includes('following the delivery log'), 5000, 'the first read');
    const e = await received();
    await tail.until(() => tail.lines().some((l) => JSON.parse(l).status === 'failed'), 5000, 'the failed first attempt');
    await advance(svc, 400); // the retry is due 30 s later, at the next 5-minute tick
    await tail.until(() => tail.lines().some((l) => JSON.parse(l).status === 'succeeded'), 5000, 'the retry');
    const res = await tail.stop();
    expect(res.code).toBe(0);
    const seen = jsonLines(res.stdout).map((d) => [d.eventId, d.attempt, d.status, d.responseStatus, d.nextAttemptAt === null]);
    expect(seen).toContainEqual([e.id, 1, 'failed', 500, false]);
    expect(seen.at(-1)).toEqual([e.id, 2, 'succeeded', 200, true]);
    expect(rx.received).toHaveLength(2);
  });

  it('on a terminal: a human line per change; --last shows the newest of the log first', async () => {
    const rx = await receiver();
    const ep = await createWithCli(rx.url, ['--events', 'message.received']);
    const e = await received();
    await rx.waitFor(1);
    await svc.deps.webhooks.flush();
    const tail = startRunning(['webhooks', 'tail', ep.id, '--last', '5'], { service: svc, tty: true });
    await tail.until(() => tail.lines().length >= 1, 5000, 'the newest delivery');
    expect(tail.lines()[0]).toMatch(new RegExp(`^\\d{2}:\\d{2}:\\d{2}\\s+whd_\\S+\\s+message\\.received\\s+${e.id}\\s+attempt 1\\s+succeeded\\s+HTTP 200`));
    expect((await tail.stop()).code).toBe(0);
  });
});

describe('webhooks listen', () => {
  it('--print-secret prints a whsec_ secret and exits 0; it is stable per profile; --secret fixes it', async () => {
    const dir = configDir();
    const first = ok(await svcRun(['webhooks', 'listen', '--print-secret'], { env: { SVC_CONFIG_DIR: dir } }));
    const secret = first.stdout.trim();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(ok(await svcRun(['webhooks', 'listen', '--print-secret'], { env: { SVC_CONFIG_DIR: dir } })).stdout.trim()).toBe(secret);
    expect(statSync(join(dir, 'listen-secrets.json')).mode & 0o777).toBe(0o600);
    expect(ok(await svcRun(['webhooks', 'listen', '--print-secret', '--secret', 'whsec_mine12345'])).stdout).toBe('whsec_mine12345\n');
    const other = ok(await svcRun(['webhooks', 'listen', '--print-secret'], { env: { SVC_CONFIG_DIR: configDir() } })).stdout.trim();
    expect(other).not.toBe(secret);
  });

  it('forwards the exact body the service delivers, signed with the local secret; retries a 500 without skipping; keeps order', async () => {
    const dir = configDir();
    const secret = ok(await svcRun(['webhooks', 'listen', '--print-secret'], { env: { SVC_CONFIG_DIR: dir } })).stdout.trim();
    // The service's own delivery of the same events, to compare bytes with.
    const direct = await receiver();
    const ep = await createWithCli(direct.url, ['--events', 'message.received']);
    const verified: boolean[] = [];
    const handler = await receiver((r, i) => {
      verified.push(verifyWebhookSignature(r.rawBody, r.headers['x-service-signature'] as string, secret));
      return { status: i === 0 ? 500 : 200, body: i === 0 ? 'boom\nsecond line' : 'ok' };
    });
    const listen = startRunning(['webhooks', 'listen', '--forward-to', handler.url, '--events', 'message.received', '--headers', 'X-Extra: yes', '-o', 'ndjson', '-v'], {
      service: svc,
      env: { SVC_CONFIG_DIR: dir },
    });
    await listen.until((_o, err) => /^ready\b/m.test(err), 5000, 'the ready line');
    expect(listen.io.err()).toContain(secret);
    expect(listen.io.err()).toContain(handler.url);

    const e1 = await received();
    const e2 = await received();
    await handler.waitFor(3, 8000);
    await direct.waitFor(2);
    expect(handler.received.map((r) => [r.body.id, r.headers['service-delivery-attempt']])).toEqual([[e1.id, '1'], [e1.id, '2'], [e2.id, '1']]);
    expect(verified).toEqual([true, true, true]);
    const h = handler.received[2]!.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h['service-event-id']).toBe(e2.id);
    expect(h['service-event-type']).toBe('message.received');
    expect(h['x-extra']).toBe('yes');
    // Byte for byte what the service POSTs to a real endpoint.
    const byId = new Map(direct.received.map((r) => [r.body.id, r.rawBody]));
    expect(handler.received[0]!.rawBody).toBe(byId.get(e1.id));
    expect(handler.received[2]!.rawBody).toBe(byId.get(e2.id));
    expect(verifyWebhookSignature(direct.received[0]!.rawBody, direct.received[0]!.headers['x-service-signature'] as string, ep.secret)).toBe(true);

    await listen.until(() => listen.lines().length >= 3, 5000, 'three delivery lines');
    const res = await listen.stop();
    expect(res.code).toBe(0);
    const lines = jsonLines(res.stdout);
    expect(lines.map((l) => [l.id, l.attempt, l.status, l.ok])).toEqual([[e1.id, 1, 500, false], [e1.id, 2, 200, true], [e2.id, 1, 200, true]]);
    expect(lines[0].retryInMs).toBe(1000);
    expect(typeof lines[1].ms).toBe('number');
    // -v: the handler's answer and the first lines of its body, on stderr.
    expect(res.stderr).toContain('answered 500');
    expect(res.stderr).toContain('| boom');
    expect(res.stderr).toContain('| second line');
  });

  it('retries a connection error without skipping: the event arrives once a handler listens on the port', async () => {
    // A loopback port nobody listens on (yet).
    const gone = await startReceiver();
    const port = gone.port;
    await gone.close();
    const url = `http://127.0.0.1:${port}/hook`;
    const listen = startRunning(['webhooks', 'listen', '--forward-to', url, '--events', 'message.received', '--since', 'now', '-o', 'ndjson'], {
      service: svc,
      env: { SVC_CONFIG_DIR: configDir() },
    });
    await listen.until((_o, err) => /^ready\b/m.test(err), 5000, 'the ready line');
    const e = await received();
    await listen.until(() => listen.lines().length >= 1, 5000, 'the refused attempt');
    const late = await receiver(undefined, { port });
    await late.waitFor(1, 8000);
    expect(late.received.map((r) => r.body.id)).toEqual([e.id]);
    await listen.until(() => listen.lines().some((l) => JSON.parse(l).ok), 5000, 'the delivered line');
    const res = await listen.stop();
    expect(res.code).toBe(0);
    const lines = jsonLines(res.stdout);
    expect(lines.every((l) => l.id === e.id)).toBe(true);
    expect(lines[0]).toMatchObject({ attempt: 1, ok: false, error: expect.stringMatching(/ECONNREFUSED/), retryInMs: 1000 });
    expect(lines.at(-1)).toMatchObject({ status: 200, ok: true });
    expect(lines.filter((l) => l.ok)).toHaveLength(1);
  });

  it("routes TYPE_PATTERN=URL first and the plain URL as catch-all; an event no route matches is skipped; a restart resumes from the default cursor file", async () => {
    const dir = configDir();
    const sms = await receiver();
    const rest = await receiver();
    const args = ['webhooks', 'listen', '--forward-to', `message.*=${sms.url}`, '--forward-to', rest.url, '-o', 'ndjson'];
    let listen = startRunning(args, { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await listen.until((_o, err) => /^ready\b/m.test(err), 5000, 'the ready line');
    const m1 = await received();
    const x1 = await emailSent();
    await sms.waitFor(1);
    await rest.waitFor(1);
    await listen.until(() => listen.lines().length >= 2, 5000, 'two lines');
    expect((await listen.stop()).code).toBe(0);
    expect(sms.received.map((r) => r.body.id)).toEqual([m1.id]);
    expect(rest.received.map((r) => r.body.id)).toEqual([x1.id]);

    // Down for a while: what arrives meanwhile is forwarded on restart (default cursor file), once.
    const cursors = join(dir, 'listen-cursors');
    expect(existsSync(cursors)).toBe(true);
    const m2 = await received();
    const x2 = await emailSent();
    listen = startRunning(args, { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await sms.waitFor(2);
    await rest.waitFor(2);
    await listen.until(() => listen.lines().length >= 2, 5000, 'the backlog');
    expect((await listen.stop()).code).toBe(0);
    expect(sms.received.map((r) => r.body.id)).toEqual([m1.id, m2.id]);
    expect(rest.received.map((r) => r.body.id)).toEqual([x1.id, x2.id]);

    // Only a message route: an email event is skipped (a line says so) and the position moves past it.
    const onlySms = startRunning(['webhooks', 'listen', '--forward-to', `message.*=${sms.url}`, '--since', 'now', '-o', 'ndjson'], { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await onlySms.until((_o, err) => /^ready\b/m.test(err), 5000, 'the ready line');
    const x3 = await emailSent();
    const m3 = await received();
    await sms.waitFor(3);
    await onlySms.until(() => onlySms.lines().length >= 2, 5000, 'two lines');
    const res = await onlySms.stop();
    expect(jsonLines(res.stdout).map((l) => [l.id, l.status])).toEqual([[x3.id, 'skipped'], [m3.id, 200]]);
    expect(rest.received).toHaveLength(2);
    const cursorFile = /cursor file (\S+);/.exec(res.stderr)![1]!;
    expect(cursorFile.startsWith(cursors)).toBe(true);
    expect(statSync(cursorFile).mode & 0o777).toBe(0o600);
    expect((await svc.call('GET', `/v1/events?after=${JSON.parse(readFileSync(cursorFile, 'utf8')).after}`)).body.data).toEqual([]);
  });

  it('--since now skips the backlog; --concurrency 2 has two events in flight at once; Ctrl-C abandons the POST in flight and keeps its event', async () => {
    const dir = configDir();
    const slow = await receiver(() => ({ status: 200, delayMs: 300 }));
    const cursorFile = join(tmp, 'concurrency.cursor');
    const first = startRunning(['webhooks', 'listen', '--forward-to', slow.url, '--cursor-file', cursorFile, '--concurrency', '2', '-o', 'ndjson'], { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await first.until((_o, err) => /^ready\b/m.test(err), 5000, 'the ready line');
    const a = await received();
    const b = await received();
    await slow.waitFor(2);
    // Both arrived before the first was answered (300 ms).
    expect(slow.received[1]!.at - slow.received[0]!.at).toBeLessThan(250);
    await first.until(() => first.lines().length >= 2, 5000, 'two lines');

    // A handler that never answers: Ctrl-C abandons the POST; the event is forwarded again next time.
    slow.setHandler(() => ({ hang: true }));
    const c = await received();
    await slow.waitFor(3);
    expect((await first.stop()).code).toBe(0);
    slow.setHandler(() => ({ status: 200 }));
    const again = startRunning(['webhooks', 'listen', '--forward-to', slow.url, '--cursor-file', cursorFile, '-o', 'ndjson'], { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await slow.waitFor(4);
    expect(slow.received.map((r) => r.body.id)).toEqual([a.id, b.id, c.id, c.id]);
    expect((await again.stop()).code).toBe(0);

    // --since now: what is already there is not forwarded.
    await received();
    const fresh = startRunning(['webhooks', 'listen', '--forward-to', slow.url, '--cursor-file', cursorFile, '--since', 'now', '-o', 'ndjson'], { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await fresh.until((_o, err) => /^ready\b/m.test(err), 5000, 'the ready line');
    const d = await received();
    await slow.waitFor(5);
    expect(slow.received.map((r) => r.body.id).slice(4)).toEqual([d.id]);
    expect((await fresh.stop()).code).toBe(0);
  });

  it("prints each event's own time (its createdAt), not the clock's when the line is printed", async () => {
    const dir = configDir();
    const handler = await receiver();
    // The service clock hours away from the wall clock, as `svc clock advance` leaves it.
    ok(await svcRun(['clock', 'advance', '3h']));
    const cursor = (await svc.call('GET', '/v1/events?after=now')).body.cursor as string;
    const e = await received();
    const createdAt = new Date(e.createdAt).toISOString();
    // An hour later on the service clock, the event is read from the backlog.
    ok(await svcRun(['clock', 'advance', '1h']));
    expect(svc.now() - e.createdAt).toBe(3_600_000);
    const args = ['webhooks', 'listen', '--forward-to', handler.url, '--events', 'message.received', '--since', cursor];

    const human = startRunning(args, { service: svc, env: { SVC_CONFIG_DIR: dir }, tty: true });
    await human.until((out) => out.includes(e.id), 5000, 'the delivery line');
    expect((await human.stop()).code).toBe(0);
    const line = human.lines().map(stripAnsi).find((l) => l.includes(e.id))!;
    // As the CLI prints a time of day on a terminal: local HH:MM:SS.
    const d = new Date(createdAt);
    const hms = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    expect(line.startsWith(`${hms}  message.received`), line).toBe(true);

    const piped = startRunning([...args, '-o', 'ndjson'], { service: svc, env: { SVC_CONFIG_DIR: dir } });
    await piped.until(() => piped.lines().length >= 1, 5000, 'the delivery line');
    expect((await piped.stop()).code).toBe(0);
    expect(jsonLines(piped.io.out())[0]).toMatchObject({ id: e.id, time: createdAt, status: 200 });
  });

  it('errors: no --forward-to, a bad pattern or URL, a bad --headers or --secret: exit 2 naming the flag', async () => {
    const never = { waitForInterrupt: () => new Promise<void>(() => undefined) };
    const cases: Array<[string[], string]> = [
      [[], '--forward-to'],
      // A remote host needs its scheme (localhost:3000 alone is plain http on this machine).
      [['--forward-to', 'example.com:3000'], '--forward-to'],
      [['--forward-to', 'mesage.*=http://127.0.0.1:1/x'], '--forward-to'],
      [['--forward-to', 'http://127.0.0.1:1/x', '--headers', 'no-colon'], '--headers'],
      [['--forward-to', 'http://127.0.0.1:1/x', '--secret', 'nope'], '--secret'],
      [['--forward-to', 'http://127.0.0.1:1/x', '--concurrency', '0'], '--concurrency'],
    ];
    for (const [args, flag] of cases) {
      const res = await svcRun(['webhooks', 'listen', ...args], never);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(flag);
    }
  });
});

describe('trigger webhook_endpoint.disabled', () => {
  it('disables the endpoint as auto-disable does: the event is in the feed and reaches ONLY the other subscribed endpoint', async () => {
    expect(ok(await svcRun(['trigger', '--list'])).stdout).toContain('webhook_endpoint.disabled');
    const failing = await receiver();
    const watcher = await receiver();
    const unrelated = await receiver();
    const target = await createWithCli(failing.url);
    const other = await createWithCli(watcher.url, ['--events', 'webhook_endpoint.disabled']);
    await createWithCli(unrelated.url, ['--events', 'message.*']);

    const res = ok(await svcRun(['trigger', 'webhook_endpoint.disabled', '--endpoint', target.id, '-o', 'json']));
    expect(JSON.parse(res.stdout)).toMatchObject({ id: target.id, enabled: false, disabledReason: 'consecutive_failures' });
    await watcher.waitFor(1);
    await svc.deps.webhooks.flush();
    expect(watcher.received[0]!.body).toMatchObject({ type: 'webhook_endpoint.disabled', endpointId: target.id, url: failing.url, reason: 'consecutive_failures', consecutiveFailures: 0 });
    expect(verifyWebhookSignature(watcher.received[0]!.rawBody, watcher.received[0]!.headers['x-service-signature'] as string, other.secret)).toBe(true);
    expect(failing.received).toHaveLength(0);
    expect(unrelated.received).toHaveLength(0);

    const feed = JSON.parse(ok(await svcRun(['events', 'list', '--types', 'webhook_endpoint.disabled', '--order', 'desc', '--limit', '1', '-o', 'json'])).stdout);
    expect(feed[0]).toMatchObject({ eventId: watcher.received[0]!.body.id, endpointId: target.id });

    const again = await svcRun(['trigger', 'webhook_endpoint.disabled', '--endpoint', target.id]);
    expect(again.code).toBe(5);
    expect((await svcRun(['trigger', 'webhook_endpoint.disabled', '--endpoint', 'we_nope'])).code).toBe(4);
    expect((await svcRun(['trigger', 'webhook_endpoint.disabled'])).code).toBe(2);
  });
});
