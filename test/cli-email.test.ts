// The email verbs end to end, in-process against a real service on loopback with a manual clock:
// domains (the records table, -o zone, verify --wait through a propagation delay, failed and
// degraded, get/list/remove), emails (send with files and stdin, the limits checked before sending,
// --wait, get, events, list, wait released by a delivery), suppressions, and every email trigger.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, expectOk, assertBuilt, type CliResult, type RunSvcOptions } from './helpers/cli.js';
import { EMAIL_LIMITS } from '../src/api/values/email.js';
import { createTestIO } from '../src/output/io.js';

let svc: TestService;
let tmp: string;
let counter = 0;
const run = (args: string[], opts: Omit<RunSvcOptions, 'service'> = {}) => runSvc(args, { service: svc, ...opts, env: { CI: 'true', ...opts.env } });
const json = (text: string) => JSON.parse(text);
const fresh = (label: string) => `${label}-${process.pid}-${++counter}.acme-mail.example`;
const file = (name: string, content: string): string => {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
};

/** Runs a command while the service clock moves a second at a time, until it exits. */
async function whileClockRuns(pending: Promise<CliResult>, stepSecs = 1): Promise<CliResult> {
  let done = false;
  const result = pending.finally(() => (done = true));
  while (!done) {
    await svc.advanceJobs(stepSecs);
    await sleep(50);
  }
  return result;
}

/** A loopback proxy to the service whose `held` resolves when a mailbox read with `wait` passes through. */
async function heldReadProxy(target: string): Promise<{ url: string; held: Promise<void>; close(): Promise<void> }> {
  let sawHeld!: () => void;
  const held = new Promise<void>((resolve) => (sawHeld = resolve));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (url.pathname === '/v1/sandbox/mailbox' && url.searchParams.has('wait')) sawHeld();
    const upstream = httpRequest(url, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A domain added, published and verified through the CLI. */
async function verifiedDomain(): Promise<string> {
  const domain = fresh('send');
  expectOk(await run(['domains', 'add', domain, '-o', 'json']));
  expectOk(await run(['trigger', 'dns.publish', '--domain', domain, '-o', 'json']));
  const verified = json(expectOk(await run(['domains', 'verify', domain, '-o', 'json'])).stdout);
  expect(verified.status).toBe('verified');
  return domain;
}

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-email-'));
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('domains', () => {
  it('add prints the domain, then its records as a table with type, name, value, purpose, status', async () => {
    const domain = fresh('table');
    const res = expectOk(await run(['domains', 'add', domain, '-o', 'table']));
    const got = json(expectOk(await run(['domains', 'get', domain, '-o', 'json'])).stdout);
    expect(got.records.length).toBeGreaterThan(0);
    const header = res.stdout.split('\n').find((l) => /\btype\b/.test(l) && /\bpurpose\b/.test(l));
    expect(header, res.stdout).toBeDefined();
    for (const col of ['type', 'name', 'value', 'purpose', 'status']) expect(header).toContain(col);
    expect(res.stdout).toContain(domain);
    for (const r of got.records) expect(res.stdout).toContain(r.purpose);
  });

  it('at an 80-column terminal: the records once, as one table whose names and values wrap and are never cut', async () => {
    const domain = fresh('terminal');
    const io = createTestIO({ stdoutTTY: true, stderrTTY: true, stdinTTY: true, columns: 80, color: false });
    const res = expectOk(await run(['domains', 'add', domain], { io }));
    const records = json(expectOk(await run(['domains', 'get', domain, '-o', 'json'])).stdout).records as Array<{ name: string; value: string; purpose: string }>;
    // Not also as a JSON blob among the domain's fields.
    expect(res.stdout).not.toMatch(/^records\b/m);
    expect(res.stdout).not.toContain('[{');
    expect(res.stdout).not.toContain('…');
    const lines = res.stdout.split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    const head = lines.findIndex((l) => /^type\s+name\s+value\s+purpose\s+status$/.test(l));
    expect(head, res.stdout).toBeGreaterThan(0);
    const col = (name: string) => lines[head]!.indexOf(name);
    const body = lines.slice(head + 1).filter((l) => l !== '');
    // Each record starts with its type; its name and value read back whole from their columns.
    const starts = body.map((l, i) => (/^\S/.test(l) ? i : -1)).filter((i) => i !== -1);
    expect(starts).toHaveLength(records.length);
    starts.forEach((start, k) => {
      const rows = body.slice(start, starts[k + 1] ?? body.length);
      // (Spaces compared apart: a line's trailing space cannot be told from the padding.)
      const read = (from: string, to: string) => rows.map((l) => l.slice(col(from), col(to))).join('').replace(/\s+/g, '');
      expect(read('name', 'value')).toBe(records[k]!.name);
      expect(read('value', 'purpose')).toBe(records[k]!.value.replace(/\s+/g, ''));
      expect(rows[0]).toContain(records[k]!.purpose);
    });
  });

  it('-o zone prints one zone-file line per record, TXT quoted, MX with its priority', async () => {
    const domain = fresh('zone');
    const res = expectOk(await run(['domains', 'add', domain, '-o', 'zone']));
    const records = json(expectOk(await run(['domains', 'get', domain, '-o', 'json'])).stdout).records as Array<{ type: string; name: string; value: string }>;
    const lines = res.stdout.trim().split('\n');
    expect(records.length).toBeGreaterThan(0);
    expect(lines).toHaveLength(records.length);
    for (const [i, r] of records.entries()) {
      expect(lines[i]!.startsWith(`${r.name}. 3600 IN ${r.type} `)).toBe(true);
      if (r.type === 'TXT') expect(lines[i]).toContain(`"${r.value.replace(/"/g, '\\"')}"`);
    }
    const mx = lines.find((l) => / IN MX /.test(l));
    expect(mx).toMatch(/ IN MX \d+ \S+\.$/);
    // get prints the same lines.
    expect(expectOk(await run(['domains', 'get', domain, '-o', 'zone'])).stdout).toBe(res.stdout);
  });

  it('a rejected domain: exit 2 naming the field; nothing added', async () => {
    const res = await run(['domains', 'add', 'gmail.com']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('domain');
  });

  it('verify --wait keeps waiting while the DNS propagates, then ends verified (exit 0), each record said', async () => {
    const domain = fresh('wait');
    expectOk(await run(['domains', 'add', domain]));
    const published = expectOk(await run(['trigger', 'dns.publish', '--domain', domain, '--visible-after', '30s', '-o', 'json']));
    expect(json(published.stdout).every((r: { visibleAfter: string }) => r.visibleAfter === '30s')).toBe(true);
    const before = json(expectOk(await run(['domains', 'verify', domain, '-o', 'json'])).stdout);
    expect(before.status).toBe('pending');
    const res = await whileClockRuns(run(['domains', 'verify', domain, '--wait', '--timeout', '30s', '-o', 'json']), 5);
    expect(res.code, res.stderr).toBe(0);
    const after = json(res.stdout);
    expect(after.status).toBe('verified');
    expect(res.stderr).toMatch(/^pending\s/m);
    expect(res.stderr).toMatch(/^valid\s+verification/m);
  });

  it('verify of a domain missing its DKIM record ends failed: exit 1 naming the record', async () => {
    const domain = fresh('nodkim');
    expectOk(await run(['domains', 'add', domain]));
    expectOk(await run(['trigger', 'dns.publish', '--domain', domain, '--skip', 'dkim']));
    const res = await run(['domains', 'verify', domain, '--wait', '-o', 'json']);
    expect(res.code).toBe(1);
    expect(json(res.stdout).status).toBe('failed');
    expect(res.stderr).toMatch(/domain .* is failed: dkim CNAME .*: missing/);
  });

  it('dns.break on a verified domain: the next check degrades it (exit 1); publishing again recovers it', async () => {
    const domain = await verifiedDomain();
    const broke = expectOk(await run(['trigger', 'dns.break', '--domain', domain, '--record', 'spf', '--how', 'wrong']));
    expect(broke.stderr).toContain('spf');
    const res = await run(['domains', 'verify', domain, '-o', 'json']);
    expect(res.code).toBe(1);
    const degraded = json(res.stdout);
    expect(degraded.status).toBe('degraded');
    expect(degraded.records.find((r: { purpose: string }) => r.purpose === 'spf').status).toBe('invalid');
    expectOk(await run(['trigger', 'dns.publish', '--domain', domain]));
    expect(json(expectOk(await run(['domains', 'verify', domain, '-o', 'json'])).stdout).status).toBe('verified');
  });

  it('list --status, get by id, delete asks (exit 2 without --yes) and deletes with --yes; remove, its old word, still works', async () => {
    const domain = await verifiedDomain();
    const listed = json(expectOk(await run(['domains', 'list', '--status', 'verified', '--all', '-o', 'json'])).stdout) as Array<{ id: string; domain: string; status: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((d) => d.status === 'verified')).toBe(true);
    const mine = listed.find((d) => d.domain === domain)!;
    expect(json(expectOk(await run(['domains', 'get', mine.id, '-o', 'json'])).stdout).domain).toBe(domain);
    const refused = await run(['domains', 'delete', domain]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    // --dry-run looks the name up (GETs are sent) and shows the DELETE without sending it.
    const dry = expectOk(await run(['--dry-run', 'domains', 'remove', domain, '--yes']));
    expect(dry.stdout + dry.stderr).toContain(`/v1/domains/${mine.id}`);
    expect(json(expectOk(await run(['domains', 'get', domain, '-o', 'json'])).stdout).id).toBe(mine.id);
    const deleted = expectOk(await run(['domains', 'delete', domain, '--yes']));
    expect(deleted.stderr).toContain(`deleted the sending domain ${domain}`);
    const gone = await run(['domains', 'get', domain]);
    expect(gone.code).toBe(4);
  });
});

describe('emails', () => {
  let from: string;
  beforeAll(async () => {
    from = `hello@${await verifiedDomain()}`;
  });

  it('sends with a text file and an HTML body from stdin to comma-separated recipients; get shows each recipient', async () => {
    const text = file('body.txt', 'Hello from a file\n');
    const res = expectOk(
      await run(['emails', 'send', '--from', `Acme <${from}>`, '--to', 'ada@example.org,grace@example.org', '--cc', 'linus@example.org', '--subject', 'Files', '--text-file', text, '--html-file', '-', '--tag', 'welcome', '--metadata', 'user=42', '--external-ref', 'order-1', '-o', 'json'], {
        stdin: '<p>Hello from <a href="https://example.com/x">stdin</a></p>',
      }),
    );
    const sent = json(res.stdout);
    expect(sent.status).toBe('queued');
    expect(sent.to).toEqual(['ada@example.org', 'grace@example.org']);
    expect(sent.cc).toEqual(['linus@example.org']);
    expect(sent.tags).toEqual(['welcome']);
    expect(sent.metadata).toEqual({ user: '42' });
    const got = json(expectOk(await run(['emails', 'get', sent.id, '-o', 'json'])).stdout);
    expect(got.recipients.map((r: { address: string; kind: string }) => `${r.kind}:${r.address}`)).toEqual(['to:ada@example.org', 'to:grace@example.org', 'cc:linus@example.org']);
    await svc.advanceJobs(5);
    const box = (await svc.call('GET', `/v1/sandbox/mailbox?to=ada@example.org`)).body.data.filter((m: { emailId: string }) => m.emailId === sent.id);
    expect(box).toHaveLength(1);
    expect(box[0].text).toBe('Hello from a file\n');
    expect(box[0].html).toContain('stdin');
  });

  it('an idempotency key is generated for every send, and a given one replays the original', async () => {
    const args = ['emails', 'send', '--from', from, '--to', 'ada@example.org', '--subject', 'Once', '--text', 'hi', '-o', 'json'];
    const a = json(expectOk(await run(args)).stdout);
    const b = json(expectOk(await run(args)).stdout);
    expect(a.id).not.toBe(b.id);
    const key = `mail-cli-${process.pid}-${++counter}`;
    const first = json(expectOk(await run([...args, '--idempotency-key', key])).stdout);
    const again = expectOk(await run([...args, '--idempotency-key', key]));
    expect(json(again.stdout).id).toBe(first.id);
    expect(again.stderr).toContain('nothing new was sent');
  });

  it('refuses locally what is cheap to check (exit 2, naming the flag, nothing sent)', async () => {
    const count = async () => (await svc.call('GET', '/v1/emails?limit=100')).body.data.length as number;
    const before = await count();
    const base = ['emails', 'send', '--from', from, '--subject', 'x'];
    const fifty = Array.from({ length: EMAIL_LIMITS.recipients }, (_, i) => `r${i}@example.org`);
    const cases: Array<[string[], string, string?]> = [
      [[...base, '--to', 'a@example.org'], '--text'],
      [[...base, '--text', 'hi'], '--to'],
      [[...base, '--to', 'a@example.org', '--text', 'a', '--text-file', '-'], '--text-file'],
      [[...base, '--to', 'a@example.org', '--text-file', '-', '--html-file', '-'], '--html-file'],
      [[...base, '--to', [...fifty, 'one-more@example.org'].join(','), '--text', 'hi'], '--to'],
      [[...base, '--to', 'a@example.org', '--text-file', join(tmp, 'missing.txt')], '--text-file'],
      [[...base, '--to', 'a@example.org', '--text', 'hi', '--metadata', 'novalue'], '--metadata'],
      [[...base, '--to', 'a@example.org', '--text', 'hi', ...Array.from({ length: EMAIL_LIMITS.tags + 1 }, (_, i) => ['--tag', `t${i}`]).flat()], '--tag'],
      [[...base, '--to', 'a@example.org', '--text-file', file('big.txt', 'x'.repeat(EMAIL_LIMITS.bodyBytes + 1))], '--text-file'],
    ];
    for (const [args, flag] of cases) {
      const res = await run(args, { stdin: '' });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(flag);
    }
    expect(await count()).toBe(before);
    // At the limits: 50 recipients and a 1 MiB body are sent.
    const ok = json(expectOk(await run([...base, '--to', fifty.join(','), '--text-file', file('max.txt', 'x'.repeat(EMAIL_LIMITS.bodyBytes)), '-o', 'json'])).stdout);
    expect(ok.recipients).toHaveLength(EMAIL_LIMITS.recipients);
  });

  it("the API's refusal names the flag: a bad --to (exit 2), a domain that is not verified (exit 5 with the fix)", async () => {
    const bad = await run(['emails', 'send', '--from', from, '--to', 'not an address', '--subject', 'x', '--text', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --to: not a valid recipient/m);
    const unverified = fresh('unverified');
    expectOk(await run(['domains', 'add', unverified]));
    const res = await run(['emails', 'send', '--from', `hi@${unverified}`, '--to', 'a@example.org', '--subject', 'x', '--text', 'hi']);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain(`svc domains verify ${unverified} --wait`);
  });

  it('--wait prints the outcome per recipient once each has a final delivery; exit 1 when one bounced', async () => {
    const res = await whileClockRuns(run(['emails', 'send', '--from', from, '--to', 'ada@example.org', '--to', 'bounce@simulator.test', '--subject', 'Wait', '--text', 'hi', '--wait', '--wait-timeout', '30s', '-o', 'table']));
    expect(res.code, res.stderr).toBe(1);
    const row = (addr: string) => res.stdout.split('\n').find((l) => l.includes(addr));
    expect(row('ada@example.org')).toContain('delivered');
    expect(row('bounce@simulator.test')).toContain('bounced');
    expect(res.stderr).toMatch(/email eml_\S+ partially_delivered/);

    const ok = await whileClockRuns(run(['emails', 'send', '--from', from, '--to', 'ada@example.org', '--subject', 'Wait', '--text', 'hi', '--wait', '--wait-timeout', '30s', '-o', 'json']));
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok.stdout).recipients[0].status).toBe('delivered');
  });

  it('--wait times out on a clock that does not move: exit 1 with the email as last seen', async () => {
    const res = await run(['emails', 'send', '--from', from, '--to', 'ada@example.org', '--subject', 'Stuck', '--text', 'hi', '--wait', '--wait-timeout', '1s', '-o', 'json']);
    expect(res.code).toBe(1);
    expect(json(res.stdout).status).toBe('queued');
    expect(res.stderr).toContain('timed out after 1s');
  });

  it('events prints the timeline as a table, and as the API gives it with -o json', async () => {
    const sent = json(expectOk(await run(['emails', 'send', '--from', from, '--to', 'click@simulator.test', '--subject', 'Timeline', '--html-file', file('link.html', '<a href="https://example.com/offer">offer</a>'), '-o', 'json'])).stdout);
    await svc.advanceJobs(15);
    const entries = json(expectOk(await run(['emails', 'events', sent.id, '-o', 'json'])).stdout) as Array<{ type: string; url?: string }>;
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.type)).toEqual(expect.arrayContaining(['email.sent', 'email.delivered', 'email.opened', 'email.clicked']));
    const table = expectOk(await run(['emails', 'events', sent.id, '-o', 'table'])).stdout;
    expect(table).toContain('detail');
    expect(table.split('\n').find((l) => l.includes('email.clicked'))).toContain('https://example.com/offer');
    const listed = json(expectOk(await run(['emails', 'list', '--limit', '5', '-o', 'json'])).stdout) as Array<{ id: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.map((e) => e.id)).toContain(sent.id);
  });

  it('wait is released by a delivery, counts one already delivered, and times out with exit 1', async () => {
    const to = `waiter-${++counter}@example.org`;
    // The waiter talks through a loopback proxy that reports its first held read: by then it has
    // taken "now" from the service, so the sends below (delivered only when the clock moves) come
    // after it whatever the machine's load (a fixed sleep is not always long enough).
    const proxy = await heldReadProxy(svc.baseUrl);
    const waiting = run(['emails', 'wait', '--to', to, '--subject-match', '^Your code', '--since', 'now', '--timeout', '20s', '-o', 'json'], { env: { SVC_BASE_URL: proxy.url } });
    await proxy.held;
    expectOk(await run(['emails', 'send', '--from', from, '--to', to, '--subject', 'Something else', '--text', 'no']));
    expectOk(await run(['emails', 'send', '--from', from, '--to', to, '--subject', 'Your code is 1234', '--text', 'code 1234']));
    const res = await whileClockRuns(waiting).finally(() => proxy.close());
    expect(res.code, res.stderr).toBe(0);
    const msg = json(res.stdout);
    expect(msg).toMatchObject({ to, subject: 'Your code is 1234', text: 'code 1234' });
    // Sent first, waited after: the message already delivered counts (the default --since 1m).
    const after = expectOk(await run(['emails', 'wait', '--to', to, '--subject-match', 'code', '--timeout', '2s']));
    expect(after.stdout).toContain('Your code is 1234');
    const none = await run(['emails', 'wait', '--to', `nobody-${counter}@example.org`, '--timeout', '1s']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('timed out after 1s');
    const badRe = await run(['emails', 'wait', '--to', to, '--subject-match', '(']);
    expect(badRe.code).toBe(2);
  });
});

describe('suppressions and the mail-server triggers', () => {
  let from: string;
  beforeAll(async () => {
    from = `hello@${await verifiedDomain()}`;
  });

  const send = async (to: string[]): Promise<string> => {
    const sent = json(expectOk(await run(['emails', 'send', '--from', from, '--to', to.join(','), '--subject', 'Report', '--html-file', file('r.html', '<a href="https://example.com/r">r</a>'), '-o', 'json'])).stdout);
    return sent.id as string;
  };

  it('trigger --list lists every email trigger with a one-line description', async () => {
    const rows = json(expectOk(await run(['trigger', '--list', '-o', 'json'])).stdout) as Array<{ type: string; description: string }>;
    for (const t of ['dns.publish', 'dns.break', 'email.bounced', 'email.failed', 'email.complained', 'email.opened', 'email.clicked', 'email.unsubscribed']) {
      const row = rows.find((r) => r.type === t);
      expect(row, t).toBeDefined();
      expect(row!.description.length).toBeGreaterThan(10);
      expect(row!.description).not.toContain('\n');
    }
  });

  it('opened, clicked, unsubscribed, complained on delivered recipients; bounced on one on its way', async () => {
    const a = `a-${++counter}@example.org`;
    const b = `b-${counter}@example.org`;
    const c = `c-${counter}@example.org`;
    const onItsWay = await send([`d-${counter}@example.org`]);
    await svc.advanceJobs(0);
    const bounced = json(expectOk(await run(['trigger', 'email.bounced', '--email', onItsWay, '--recipient', `d-${counter}@example.org`, '-o', 'json'])).stdout);
    expect(bounced.status).toBe('bounced');
    const lost = await send([`f-${counter}@example.org`]);
    await svc.advanceJobs(0);
    const failed = json(expectOk(await run(['trigger', 'email.failed', '--email', lost, '--recipient', `f-${counter}@example.org`, '-o', 'json'])).stdout);
    expect(failed.status).toBe('failed');

    const id = await send([a, b, c]);
    await svc.advanceJobs(2);
    expect(json(expectOk(await run(['trigger', 'email.opened', '--email', id, '--recipient', a, '-o', 'json'])).stdout).openedAt).not.toBeNull();
    expect(json(expectOk(await run(['trigger', 'email.clicked', '--email', id, '--recipient', a, '-o', 'json'])).stdout).clickedAt).not.toBeNull();
    expect(json(expectOk(await run(['trigger', 'email.unsubscribed', '--email', id, '--recipient', b, '-o', 'json'])).stdout).unsubscribedAt).not.toBeNull();
    expect(json(expectOk(await run(['trigger', 'email.complained', '--email', id, '--recipient', c, '-o', 'json'])).stdout).complainedAt).not.toBeNull();
    // A second complaint is refused by the service: exit 5.
    expect((await run(['trigger', 'email.complained', '--email', id, '--recipient', c])).code).toBe(5);
    const types = (json(expectOk(await run(['emails', 'events', id, '-o', 'json'])).stdout) as Array<{ type: string }>).map((e) => e.type);
    for (const t of ['email.opened', 'email.clicked', 'email.unsubscribed', 'email.complained']) expect(types).toContain(t);

    // The suppressions those reports made.
    const listed = json(expectOk(await run(['suppressions', 'list', '--all', '-o', 'json'])).stdout) as Array<{ address: string; reason: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.find((s) => s.address === `d-${counter}@example.org`)?.reason).toBe('hard_bounce');
    expect(listed.find((s) => s.address === b)?.reason).toBe('unsubscribe');
    const complaints = json(expectOk(await run(['suppressions', 'list', '--reason', 'complaint', '-o', 'json'])).stdout) as Array<{ address: string; reason: string }>;
    expect(complaints.length).toBeGreaterThan(0);
    expect(complaints.every((s) => s.reason === 'complaint')).toBe(true);
    expect(complaints.map((s) => s.address)).toContain(c);

    // An unsubscribe is removable (asks first); a complaint is not (exit 5, said plainly).
    expect((await run(['suppressions', 'remove', b])).code).toBe(2);
    expectOk(await run(['suppressions', 'remove', b, '--yes']));
    const refused = await run(['suppressions', 'remove', c, '--yes']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('stays suppressed for good');
    const after = json(expectOk(await run(['suppressions', 'list', '--all', '-o', 'json'])).stdout) as Array<{ address: string }>;
    expect(after.map((s) => s.address)).not.toContain(b);
    expect(after.map((s) => s.address)).toContain(c);
  });
});
