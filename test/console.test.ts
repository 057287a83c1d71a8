import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { consoleGet, consolePost, exchange, mintLink, openConsole, sub } from './console-fixtures.js';
import { buy } from './messages-fixtures.js';
import { CONSOLE_LINK_TTL_SECS, CONSOLE_SESSION_TTL_SECS } from '../src/api/values/console.js';

// The console's sessions (one-time link, cookie, expiry, revocation), its tenancy (another
// account's ids are 404 on every page and form), its CSRF and cross-origin refusals, and hostile
// values that must stay text.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const createKey = async (name: string, headers?: Record<string, string>) => {
  const res = await svc.call('POST', '/v1/keys', { body: { name, mode: 'live' }, headers });
  expect(res.status).toBe(201);
  return res.body as { id: string; key: string };
};

describe('console sessions', () => {
  it('mints a one-time link that sets an HttpOnly, SameSite=Strict cookie and redirects without the token', async () => {
    const before = Date.now();
    const link = await mintLink(svc);
    expect(link.url).toMatch(new RegExp(`^${svc.baseUrl}/console/login\\?token=[A-Za-z0-9]{32}$`));
    // Real time: the link's minute is the wall clock's, whatever the service clock says.
    expect(Date.parse(link.expiresAt)).toBeGreaterThanOrEqual(before + CONSOLE_LINK_TTL_SECS * 1000);
    expect(Date.parse(link.expiresAt)).toBeLessThanOrEqual(Date.now() + CONSOLE_LINK_TTL_SECS * 1000);
    const res = await exchange(svc, link.url);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/console/');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^svc_console_\d+=[A-Za-z0-9]{32}; /);
    for (const attr of ['HttpOnly', 'SameSite=Strict', 'Path=/console', `Max-Age=${CONSOLE_SESSION_TTL_SECS}`]) expect(cookie).toContain(attr);
    const page = await consoleGet(svc, '/console/', cookie.split(';')[0]);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Overview</h1>');
    // Once only.
    expect((await exchange(svc, link.url)).status).toBe(401);
  });

  it('login CSRF: opening a link signs nothing in; it names the account, and only a same-origin POST uses it', async () => {
    const k = await createKey('login-csrf');
    const link = await mintLink(svc, k.key);
    // A browser that did not start the flow (a victim sent the link): a page that asks, no cookie.
    const shown = await consoleGet(svc, new URL(link.url).pathname + new URL(link.url).search);
    expect(shown.status).toBe(200);
    expect(shown.headers['set-cookie']).toBeUndefined();
    expect(shown.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(shown.text).toContain('Sign in to the console?');
    expect(shown.text).toContain(svc.bootstrap.accountId);
    expect(shown.text).toContain('login-csrf');
    const token = new URL(link.url).searchParams.get('token')!;
    // Another site cannot post the token for the victim (nor a request that says nothing of its origin).
    const post = (headers: Record<string, string>) => consolePost(svc, '/console/login', '', { token }, headers);
    const foreign: Array<Record<string, string>> = [{ origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }, {}];
    for (const headers of foreign) {
      const refused = await post(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    // Seeing the page twice used nothing up: the owner's click still signs in, once.
    const signedIn = await post({ origin: svc.baseUrl, 'sec-fetch-site': 'same-origin' });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers['set-cookie']).toMatch(/^svc_console_\d+=[A-Za-z0-9]{32}; /);
    expect((await post({ origin: svc.baseUrl, 'sec-fetch-site': 'same-origin' })).status).toBe(401);
    expect((await consoleGet(svc, new URL(link.url).pathname + new URL(link.url).search)).status).toBe(401);
  });

  // A link and a session grant a login: they age in real time, as signatures do, never on the
  // service clock a test freezes and advances. The service's wall clock is moved here (the option
  // svc/testing's harness passes through), not waited for.
  it('ages links and sessions in real time: a service clock advanced by days ends neither, real time does', async () => {
    let ahead = 0;
    const timed = await startTestService({ wallNow: () => Date.now() + ahead });
    const advance = async (seconds: number) => expect((await timed.call('POST', '/v1/sandbox/clock/advance', { body: { seconds } })).status).toBe(200);
    try {
      // The service clock two days on: a link minted a moment ago still opens, and its session lasts.
      const link = await mintLink(timed);
      await advance(2 * 86_400);
      const opened = await exchange(timed, link.url);
      expect(opened.status).toBe(303);
      const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
      await advance(CONSOLE_SESSION_TTL_SECS + 60);
      expect((await consoleGet(timed, '/console/', cookie)).status).toBe(200);

      // Real time past the link's minute: refused, however still the service clock stands.
      const late = await mintLink(timed);
      ahead += (CONSOLE_LINK_TTL_SECS + 1) * 1000;
      expect((await exchange(timed, late.url)).status).toBe(401);
      // Real time past the session's hours: it has ended.
      ahead += CONSOLE_SESSION_TTL_SECS * 1000;
      const ended = await consoleGet(timed, '/console/', cookie);
      expect(ended.status).toBe(401);
      expect(ended.text).toContain('expired');
      expect(ended.text).toContain('svc console');
    } finally {
      await timed.stop();
    }
  });

  it('answers no page without a session, or with a made-up one', async () => {
    expect((await consoleGet(svc, '/console/')).status).toBe(401);
    expect((await consoleGet(svc, '/console/messages', `svc_console_1=${'a'.repeat(32)}`)).status).toBe(401);
    expect((await exchange(svc, `${svc.baseUrl}/console/login?token=nope`)).status).toBe(401);
  });

  it('ends the session when its key is revoked (checked on every request)', async () => {
    const k = await createKey('console-revoke');
    const { cookie } = await openConsole(svc, k.key);
    expect((await consoleGet(svc, '/console/events', cookie)).status).toBe(200);
    expect((await svc.call('DELETE', `/v1/keys/${k.id}`)).status).toBe(204);
    const page = await consoleGet(svc, '/console/events', cookie);
    expect(page.status).toBe(401);
    expect(page.text).toContain('revoked');
    // A link minted before the revocation opens nothing either.
    const k2 = await createKey('console-revoke-2');
    const link = await mintLink(svc, k2.key);
    await svc.call('DELETE', `/v1/keys/${k2.id}`);
    expect((await exchange(svc, link.url)).status).toBe(401);
  });

  it('keeps sessions across a restart of the service (they are stored, hashed)', async () => {
    const dataDir = (await import('node:fs')).mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'svc-console-'));
    const first = await startTestService({ dataDir });
    const { cookie } = await openConsole(first);
    const port = Number(new URL(first.baseUrl).port);
    await first.stop();
    const second = await startTestService({ dataDir, port });
    try {
      expect((await consoleGet(second, '/console/keys', cookie)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('does not store the link for an Idempotency-Key replay', async () => {
    const headers = { 'idempotency-key': `console-${Date.now()}` };
    const a = await svc.call('POST', '/v1/console/sessions', { headers });
    const b = await svc.call('POST', '/v1/console/sessions', { headers });
    expect(a.body.url).toMatch(/token=/);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.url).toBeNull();
  });
});

describe('console forms: the session, its token and the same origin', () => {
  it('refuses a form without the token, with another token, from another origin or site', async () => {
    const { cookie, csrf } = await openConsole(svc);
    const fields = { csrf, name: 'from-console', mode: 'test' };
    expect((await consolePost(svc, '/console/keys', cookie, { ...fields, csrf: '' })).status).toBe(403);
    expect((await consolePost(svc, '/console/keys', cookie, { ...fields, csrf: 'x'.repeat(32) })).status).toBe(403);
    expect((await consolePost(svc, '/console/keys', cookie, fields, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await consolePost(svc, '/console/keys', cookie, fields, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await consolePost(svc, '/console/keys', cookie, fields, { origin: svc.baseUrl, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await consolePost(svc, '/console/keys', cookie, fields, {})).status).toBe(403);
    expect((await consolePost(svc, '/console/keys', cookie, fields, { origin: 'null' })).status).toBe(403);
    // Another session's token is not this one's.
    const other = await openConsole(svc);
    expect((await consolePost(svc, '/console/keys', cookie, { ...fields, csrf: other.csrf })).status).toBe(403);
    const keys = await svc.call('GET', '/v1/keys?limit=100');
    expect(keys.body.data.filter((k: { name: string }) => k.name === 'from-console')).toEqual([]);
    // The real thing works, and shows the key once.
    const made = await consolePost(svc, '/console/keys', cookie, fields);
    expect(made.status).toBe(201);
    expect(made.text).toMatch(/sk_test_[A-Za-z0-9]{32}/);
    expect((await consoleGet(svc, '/console/keys', cookie)).text).not.toMatch(/sk_test_[A-Za-z0-9]{32}/);
  });

  it('serves every page with a strict CSP and nothing from another origin', async () => {
    const { cookie } = await openConsole(svc);
    for (const path of ['/console/', '/console/messages', '/console/events', '/console/webhooks', '/console/numbers', '/console/calls', '/console/email', '/console/email/inbox', '/console/registration', '/console/billing', '/console/keys', '/console/sandbox']) {
      const page = await consoleGet(svc, path, cookie);
      expect(page.status, path).toBe(200);
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
      // Not no-referrer: under it a browser sends `Origin: null` with the console's own forms (refused).
      expect(page.headers['referrer-policy']).toBe('same-origin');
      expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(page.text).not.toMatch(/<script>|<style>| style="| on[a-z]+="/);
      expect(page.text).toContain('class="cmd"');
    }
    expect((await consoleGet(svc, '/console/assets/console.js')).headers['content-type']).toMatch(/^text\/javascript/);
    expect((await consoleGet(svc, '/console/assets/console.css')).headers['content-type']).toMatch(/^text\/css/);
  });
});

describe('console tenancy: a session sees what its key may see', () => {
  it("answers 404 for another account's ids on every page and form", async () => {
    // The agency's endpoint, delivery and key; a session of its sub-account's key.
    const endpoint = await svc.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    expect(endpoint.status).toBe(201);
    const test = await svc.call('POST', `/v1/webhooks/${endpoint.body.id}/test`);
    const deliveryId = test.body?.id ?? 'dlv_unknown';
    const agencyKey = await createKey('agency-key');
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Console child' } })).body;
    const childKey = await createKey('child-key', sub(child.id));
    const { cookie, csrf } = await openConsole(svc, childKey.key);

    expect((await consoleGet(svc, `/console/webhooks/${endpoint.body.id}`, cookie)).status).toBe(404);
    expect((await consolePost(svc, `/console/webhooks/${endpoint.body.id}/deliveries/${deliveryId}/retry`, cookie, { csrf })).status).toBe(404);
    expect((await consolePost(svc, `/console/keys/${agencyKey.id}/revoke`, cookie, { csrf })).status).toBe(404);
    expect((await svc.call('GET', '/v1/keys?limit=100')).body.data.find((k: { id: string }) => k.id === agencyKey.id).revokedAt).toBeNull();
    // Lists show only the child's own records.
    expect((await consoleGet(svc, '/console/webhooks', cookie)).text).not.toContain(endpoint.body.id);
    expect((await consoleGet(svc, '/console/keys', cookie)).text).not.toContain(agencyKey.id);
    const overview = await consoleGet(svc, '/console/', cookie);
    expect(overview.text).toContain(child.id);
    expect(overview.text).not.toContain('Act as');
    // A child key cannot switch to another account.
    expect((await consolePost(svc, '/console/context', cookie, { csrf, subaccount: svc.bootstrap.accountId })).status).toBe(403);
  });

  it('lets an agency session switch to its child, and not to a stranger', async () => {
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Switch child' } })).body;
    const { cookie, csrf } = await openConsole(svc);
    expect((await consoleGet(svc, '/console/', cookie)).text).toContain('Act as');
    expect((await consolePost(svc, '/console/context', cookie, { csrf, subaccount: child.id })).status).toBe(303);
    expect((await consoleGet(svc, '/console/', cookie)).text).toContain(`<dd>${child.id}</dd>`);
    expect((await consolePost(svc, '/console/context', cookie, { csrf, subaccount: 'acc_nobody' })).status).toBe(404);
    expect((await consolePost(svc, '/console/context', cookie, { csrf, subaccount: '' })).status).toBe(303);
    expect((await consoleGet(svc, '/console/', cookie)).text).toContain(`<dd>${svc.bootstrap.accountId}</dd>`);
    // A link minted with Service-Subaccount opens on the child.
    const viaChild = await openConsole(svc, undefined, sub(child.id));
    expect((await consoleGet(svc, '/console/', viaChild.cookie)).text).toContain(`<dd>${child.id}</dd>`);
  });
});

describe('every list is paged by cursor, like the API', () => {
  it('domains, brands and campaigns: page 2 shows what page 1 did not', async () => {
    const { approvedCampaign } = await import('./registration-fixtures.js');
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Paging child' } })).body;
    const headers = sub(child.id);
    const made = { domains: [] as string[], brands: [] as string[], campaigns: [] as string[] };
    for (let i = 0; i < 26; i++) {
      const d = await svc.call('POST', '/v1/domains', { body: { domain: `page${i}.example` }, headers });
      expect(d.status, d.text).toBe(201);
      made.domains.push(d.body.domain);
      const c = await approvedCampaign(svc, { headers }, { name: `Paged campaign ${i}` });
      made.campaigns.push(c.id);
      made.brands.push(c.brandId);
    }
    const { cookie } = await openConsole(svc, (await createKey('paging', headers)).key);
    const next = (text: string, what: string) => [...text.matchAll(/<a rel="next" href="([^"]+)">Next page of (\w+)<\/a>/g)].find((m) => m[2] === what)?.[1]?.replace(/&amp;/g, '&');
    const shown = (text: string, ids: string[]) => ids.filter((id) => text.includes(`>${id}<`) || text.includes(`/${id}"`) || text.includes(`<h3>${id} `));
    for (const [path, what, ids] of [['/console/email', 'domains', made.domains], ['/console/registration', 'brands', made.brands], ['/console/registration', 'campaigns', made.campaigns]] as const) {
      const first = await consoleGet(svc, path, cookie);
      expect(first.status).toBe(200);
      const onFirst = shown(first.text, ids);
      expect(onFirst, what).toHaveLength(25);
      const href = next(first.text, what);
      expect(href, what).toBeDefined();
      const second = await consoleGet(svc, `${path}${href}`, cookie);
      expect(second.status).toBe(200);
      const onSecond = shown(second.text, ids);
      expect(onSecond, what).toHaveLength(1);
      expect(onFirst, what).not.toContain(onSecond[0]);
      expect(next(second.text, what), what).toBeUndefined();
    }
  }, 60_000);
});

describe('hostile values stay text', () => {
  const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;
  it('escapes message bodies, key names and endpoint descriptions', async () => {
    const n = await buy(svc);
    const inbound = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550199', to: n.phoneNumber, body: HOSTILE } });
    expect(inbound.status).toBe(201);
    await svc.call('POST', '/v1/keys', { body: { name: 'k <b>bold</b> "q"', mode: 'test' } });
    await svc.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/x', events: ['*'], description: '<i>desc</i>' } });
    const { cookie } = await openConsole(svc);
    const thread = await consoleGet(svc, `/console/messages/${encodeURIComponent('+14155550199')}`, cookie);
    expect(thread.status).toBe(200);
    expect(thread.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;&#39;&quot;&amp;');
    for (const path of ['/console/messages', `/console/messages/${encodeURIComponent('+14155550199')}`, '/console/keys', '/console/webhooks', '/console/events']) {
      const page = (await consoleGet(svc, path, cookie)).text;
      expect(page, path).not.toContain('<script>alert');
      expect(page, path).not.toContain('<img src=x');
      expect(page, path).not.toContain('<b>bold</b>');
      expect(page, path).not.toContain('<i>desc</i>');
    }
  });
});

describe('the live stream', () => {
  it('sends an event of the session\'s account after its commit, and not another account\'s', async () => {
    const { cookie } = await openConsole(svc);
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Stream child' } })).body;
    const ac = new AbortController();
    const res = await fetch(`${svc.baseUrl}/console/stream?types=message.*`, { headers: { cookie }, signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pred: () => boolean) => {
      while (!pred()) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await until(() => text.includes(': listening'));
    const n = await buy(svc);
    const childNumber = await buy(svc, { headers: sub(child.id) });
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550111', to: childNumber.phoneNumber, body: 'child' }, headers: sub(child.id) });
    const started = performance.now();
    const mine = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550112', to: n.phoneNumber, body: 'mine' } });
    await until(() => text.includes('"type":"message.received"'));
    const ms = performance.now() - started;
    ac.abort();
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('message.received');
    expect(mine.status).toBe(201);
    // Within 250 ms of the commit (measured from before the request, so it includes it).
    expect(ms).toBeLessThan(2500);
    console.log(`stream: event received ${ms.toFixed(1)} ms after the inbound request was sent`);
  });

  it('asks the page to fetch itself again when notices from elsewhere may have been missed', async () => {
    const { cookie } = await openConsole(svc);
    const ac = new AbortController();
    const res = await fetch(`${svc.baseUrl}/console/stream?types=message.*`, { headers: { cookie }, signal: ac.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pred: () => boolean) => {
      while (!pred()) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await until(() => text.includes(': listening'));
    // What the API process does when the worker's notices were dropped before it read them (worker-link.ts).
    // A process's own signal: with replicas (SVC_TEST_REPLICAS) the stream is open on whichever one
    // the proxy chose, so each is told.
    for (const r of svc.replicas) r.deps.events.resync();
    await until(() => /^data: /m.test(text));
    ac.abort();
    // Nothing in it to set in place: console.js fetches the page.
    expect([...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!))).toEqual([{}]);
  });

  it('refuses an unknown type filter', async () => {
    const { cookie } = await openConsole(svc);
    expect((await consoleGet(svc, '/console/stream?types=nope', cookie)).status).toBe(400);
  });

  /** The stream's `data:` messages so far, parsed, and a wait for more. */
  async function openStream(cookie: string, query: string) {
    const ac = new AbortController();
    const res = await fetch(`${svc.baseUrl}/console/stream?${query}`, { headers: { cookie }, signal: ac.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const messages = () => [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { id?: string; type?: string; row?: string });
    const until = async (pred: () => boolean) => {
      while (!pred()) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await until(() => text.includes(': listening'));
    return { messages, until, close: () => ac.abort() };
  }

  it("with rows=events, carries the new event's row exactly as the events page renders it, user content escaped", async () => {
    const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;
    const { cookie } = await openConsole(svc);
    const stream = await openStream(cookie, 'types=message.received&rows=events');
    const n = await buy(svc);
    const sent = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550113', to: n.phoneNumber, body: HOSTILE } });
    expect(sent.status, sent.text).toBe(201);
    await stream.until(() => stream.messages().length > 0);
    stream.close();
    const [message] = stream.messages();
    expect(message!.type).toBe('message.received');
    const row = message!.row!;
    // The same markup, byte for byte, as the page's own row for that event (one view renders both).
    const page = (await consoleGet(svc, '/console/events?types=message.received', cookie)).text;
    const onPage = new RegExp(`<tr data-event-id="${message!.id}"[\\s\\S]*?</tr>`).exec(page)?.[0];
    expect(row).toBe(onPage);
    expect(row).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=\\&quot;alert(2)\\&quot;&gt;');
    expect(row).not.toContain('<script>');
    expect(row).not.toContain('<img');
  });

  it("reads the row of an event committed elsewhere as the session's account, and sends none for another account's", async () => {
    const { cookie } = await openConsole(svc);
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Rows child' } })).body as { id: string };
    const n = await buy(svc);
    const childNumber = await buy(svc, { headers: sub(child.id) });
    const feedOf = async (headers?: Record<string, string>) => (await svc.call('GET', '/v1/events?types=message.received&order=desc&limit=1', { headers })).body.data[0] as { id: string; type: string };
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550114', to: n.phoneNumber, body: 'mine, from elsewhere' } });
    const mine = await feedOf();
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550115', to: childNumber.phoneNumber, body: 'the child\'s' }, headers: sub(child.id) });
    const theirs = await feedOf(sub(child.id));
    const stream = await openStream(cookie, 'types=message.received&rows=events');
    // What the API process hears of a worker's commit (worker-link.ts): a hint, no body. The second
    // names this session's account with the other account's event id: only the read decides.
    // Told on every replica (SVC_TEST_REPLICAS): the stream is open on whichever the proxy chose.
    for (const r of svc.replicas) r.deps.events.heardElsewhere({ id: mine.id, accountId: svc.bootstrap.accountId, type: mine.type });
    for (const r of svc.replicas) r.deps.events.heardElsewhere({ id: theirs.id, accountId: svc.bootstrap.accountId, type: theirs.type });
    await stream.until(() => stream.messages().length >= 2);
    stream.close();
    const [first, second] = stream.messages();
    expect(first!.id).toBe(mine.id);
    expect(first!.row).toContain('mine, from elsewhere');
    expect(first!.row).toMatch(new RegExp(`^<tr data-event-id="${mine.id}"`));
    // Another account's event: no row (the page fetches itself, and sees only its own).
    expect(second!.id).toBe(theirs.id);
    expect(second!.row).toBeUndefined();
  });
});

describe('voice, email and registration pages', () => {
  it('draws a number\'s IVR route as SVG beside its YAML, labels escaped', async () => {
    const { voiceNumber } = await import('./calls-fixtures.js');
    const n = await voiceNumber(svc, {
      destinations: [{ destinationType: 'pstn', destination: '+14155550199', label: 'Front <desk>' }],
      ivr: {
        enabled: true,
        greeting: { text: 'Press 1 for <sales>' },
        keys: [
          { digit: '1', label: 'Sales "team"', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550198' }] } },
          { digit: '2', label: null, action: { type: 'voicemail' } },
        ],
        fallback: { type: 'voicemail' },
      },
      voicemailEnabled: true,
    });
    const { cookie } = await openConsole(svc);
    const page = await consoleGet(svc, `/console/numbers/${n.id}`, cookie);
    expect(page.status, page.text).toBe(200);
    const svg = page.text.slice(page.text.indexOf('<svg'), page.text.indexOf('</svg>'));
    expect(svg).toContain('IVR menu');
    expect(svg).toContain('Key 1: Sales &quot;team&quot;');
    expect(svg).toContain('Key 2');
    expect(svg).toContain('No key: fallback');
    expect(svg).toContain('Press 1 for &lt;sales&gt;');
    expect(page.text).not.toContain('<sales>');
    // The YAML beside it, and the command that changes it.
    expect(page.text).toMatch(/<pre class="json" tabindex="0" aria-label="The route as YAML">[^<]*ivr:/);
    expect(page.text).toContain(`svc routes edit ${n.id}`);
  });

  it('shows a call with its trace, and another account\'s call, email, campaign and number are 404', async () => {
    const { voiceNumber, placeCall } = await import('./calls-fixtures.js');
    const n = await voiceNumber(svc);
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 5 } });
    await svc.advanceJobs(30);
    const { cookie } = await openConsole(svc);
    const page = await consoleGet(svc, `/console/calls/${call.id}`, cookie);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('<ol class="timeline">');
    expect((await consoleGet(svc, '/console/calls', cookie)).text).toContain(call.id);

    const campaign = (await import('./registration-fixtures.js')).approvedCampaign;
    const c = await campaign(svc);
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Pages child' } })).body;
    const childKey = await createKey('pages-child', sub(child.id));
    const childSession = await openConsole(svc, childKey.key);
    for (const path of [`/console/calls/${call.id}`, `/console/calls/${call.id}/recording.wav`, `/console/numbers/${n.id}`, `/console/registration/campaigns/${c.id}`, '/console/email/emails/eml_unknown', '/console/voicemails/vm_unknown/audio.wav']) {
      const res = await consoleGet(svc, path, childSession.cookie);
      expect(res.status, path).toBe(404);
    }
    // The agency's own campaign page shows the prediction's checks.
    const mine = await consoleGet(svc, `/console/registration/campaigns/${c.id}`, cookie);
    expect(mine.status).toBe(200);
    expect(mine.text).toMatch(/<strong>\d+<\/strong>\/100/);
    expect(mine.text).toContain('class="checks"');
  });

  it('the phone: places a sandbox call, its dial pad reaches the IVR, the caller hangs up (local service only)', async () => {
    const { voiceNumber } = await import('./calls-fixtures.js');
    const n = await voiceNumber(svc, {
      destinations: [{ destinationType: 'pstn', destination: '+14155550199' }],
      ivr: { enabled: true, greeting: { text: 'Press 1 for sales' }, keys: [{ digit: '1', label: 'Sales', action: { type: 'voicemail' } }], fallback: { type: 'voicemail' } },
      voicemailEnabled: true,
    });
    const { cookie, csrf } = await openConsole(svc);
    expect((await consoleGet(svc, '/console/calls', cookie)).text).toContain(`<option value="${n.phoneNumber}">`);
    const placed = await consolePost(svc, '/console/calls', cookie, { csrf, from: '+14155550142', to: n.phoneNumber });
    expect(placed.status, placed.text).toBe(303);
    const callPath = placed.headers.location!;
    const callId = decodeURIComponent(callPath.split('/').pop()!);
    await svc.advanceJobs(0);
    const trace = async () => ((await svc.call('GET', `/v1/calls/${callId}/trace`)).body.data as Array<{ step: string; detail: string }>);
    // The menu waits for a key (manual clock: its digit timeout never comes by itself).
    expect((await trace()).map((t) => t.step)).toContain('ivr.prompt');
    expect((await trace()).map((t) => t.step)).not.toContain('ivr.key');
    const page = await consoleGet(svc, callPath, cookie);
    expect(page.text).toContain('class="dialpad"');
    expect(page.text).toContain('aria-label="# (pound)"');
    // A bad key is the API's validation error; nothing moves.
    expect((await consolePost(svc, `${callPath}/keys`, cookie, { csrf, digit: 'x' })).status).toBe(400);
    const pressed = await consolePost(svc, `${callPath}/keys`, cookie, { csrf, digit: '1' });
    expect(pressed.status, pressed.text).toBe(303);
    expect(pressed.headers.location).toBe(`${callPath}?pressed=1`);
    await svc.advanceJobs(0);
    expect((await trace()).find((t) => t.step === 'ivr.key')?.detail).toBe('1 (Sales) → voicemail');
    // Past the menu a key reaches no one.
    expect((await consolePost(svc, `${callPath}/keys`, cookie, { csrf, digit: '2' })).status).toBe(409);
    // Another account's session cannot touch the call.
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'Phone child' } })).body;
    const other = await openConsole(svc, (await createKey('phone-child', sub(child.id))).key);
    expect((await consolePost(svc, `${callPath}/hangup`, other.cookie, { csrf: other.csrf })).status).toBe(404);
    // The caller hangs up during the voicemail: the call ends, and the page has no dial pad any more.
    expect((await consolePost(svc, `${callPath}/hangup`, cookie, { csrf })).status).toBe(303);
    await svc.advanceJobs(0);
    const ended = (await svc.call('GET', `/v1/calls/${callId}`)).body;
    expect(ended.endedAt).not.toBeNull();
    expect((await trace()).map((t) => t.step)).toContain('hangup');
    expect((await consoleGet(svc, callPath, cookie)).text).not.toContain('class="dialpad"');
    expect((await consolePost(svc, `${callPath}/hangup`, cookie, { csrf })).status).toBe(409);
  });

  it('plays a recorded call: the page has its player, the audio is served to the session', async () => {
    const { voiceNumber, placeCall } = await import('./calls-fixtures.js');
    const n = await voiceNumber(svc, { destinationType: 'pstn', destination: '+14155550199', recordCalls: true });
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 4 } });
    await svc.advanceJobs(30);
    const { cookie } = await openConsole(svc);
    const page = await consoleGet(svc, `/console/calls/${call.id}`, cookie);
    expect(page.text).toContain(`<audio controls preload="none" src="/console/calls/${call.id}/recording.wav"`);
    const audio = await consoleGet(svc, `/console/calls/${call.id}/recording.wav`, cookie);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect((await consoleGet(svc, `/console/calls/${call.id}/recording.wav`)).status).toBe(401);
  });

  it('escapes brand names on the registration page', async () => {
    const { mockBrand } = await import('./registration-fixtures.js');
    await mockBrand(svc, {}, { displayName: 'Bikes <script>alert(1)</script>' });
    const { cookie } = await openConsole(svc);
    const page = await consoleGet(svc, '/console/registration', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Bikes &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>alert');
  });

  it('advances the clock from the sandbox page only for the root account\'s live key', async () => {
    const { cookie, csrf } = await openConsole(svc);
    const before = svc.now();
    const res = await consolePost(svc, '/console/sandbox/advance', cookie, { csrf, seconds: '60' });
    expect(res.status, res.text).toBe(200);
    expect(svc.now() - before).toBeGreaterThanOrEqual(60_000);
    const testKey = (await svc.call('POST', '/v1/keys', { body: { name: 'sandbox-test', mode: 'test' } })).body;
    const t = await openConsole(svc, testKey.key);
    expect((await consoleGet(svc, '/console/sandbox', t.cookie)).text).not.toContain('Advance the clock');
    const at = svc.now();
    expect((await consolePost(svc, '/console/sandbox/advance', t.cookie, { csrf: t.csrf, seconds: '60' })).status).toBe(403);
    expect(svc.now()).toBe(at);
  });
});
