/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { advance, alignClock, deliveries, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { consoleGet, consolePost, openConsole, sub } from './console-fixtures.js';
import { launchChromium, seriousAxeIssues, signIn as signInWith, waitListening, type Watched } from './helpers/console-browser.js';
import { SinkWithSecretSchema } from '../src/api/schemas/sinks.js';
import { signWebhookPayload } from '../src/webhooks/verify.js';

// The console's webhook inspector in a real browser (Debian's chromium driven by playwright-core),
// with data made through the API: a delivery to a sink that fails its first two attempts, inspected
// attempt by attempt (the request as sent, signature header and all, never the secret; the answer);
// Replay from the delivery and from the endpoint's page (a new delivery, the count shown, the sink
// receiving it); a sink's page taking a new request in without a reload. Hostile values are text;
// a form without its token is refused; another account's ids are not found. No browser is a
// FAILURE, never a skip.

const HOSTILE = `"'></pre><script>window.__pwned = 1</script><img src=x id=pwned>`;

let svc: TestService;
let browser: Browser;
let receiver: Receiver;
let n = 0;

beforeAll(async () => {
  browser = await launchChromium();
  // A receiver whose answer is markup: the inspector must show it as text.
  receiver = await startReceiver(() => ({ status: 200, body: HOSTILE }));
  svc = await startWebhookService();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await receiver?.close();
});

const signIn = (key?: string): Promise<Watched> => signInWith(browser, svc, key);

async function createSink(body: Record<string, unknown>, key?: string) {
  const res = await svc.call('POST', '/v1/sandbox/sinks', { body: { events: ['message.received'], ...body }, key });
  expect(res.status, res.text).toBe(201);
  return SinkWithSecretSchema.parse(res.body);
}
const deleteSink = async (id: string) => expect((await svc.call('DELETE', `/v1/sandbox/sinks/${id}`)).status).toBe(204);

/** An inbound text to the test sender: one `message.received` event of the bootstrap account. */
async function inbound(): Promise<string> {
  const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550123', to: '+15005550006', body: `hello ${++n}` } });
  expect(res.status, res.text).toBe(201);
  const events = await svc.call('GET', '/v1/events?order=desc&limit=1&types=message.received');
  return events.body.data[0].id as string;
}

/** What the page shows no script ran and no element came from a value. */
async function expectInert(w: Watched): Promise<void> {
  expect(await w.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await w.page.locator('#pwned').count()).toBe(0);
}

describe('the webhook inspector in Chromium', () => {
  it("shows each attempt of a delivery to a sink that failed twice: the request as sent (never the secret) and the answer", async () => {
    alignClock(svc, 10);
    const sink = await createSink({ respond: { failFirst: 2 } });
    const eventId = await inbound();
    await svc.flushWebhooks();
    await advance(svc, 300); // the retry 30 s later, at the next 5-minute tick
    await advance(svc, 300); // the next, 2 min after that one
    const [delivery] = await deliveries(svc, sink.endpointId);
    expect(delivery).toMatchObject({ eventId, status: 'succeeded', attempt: 3 });

    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/webhooks`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: sink.url }).click()]);
    await Promise.all([page.waitForLoadState('load'), page.locator(`tr[data-delivery-id="${delivery.id}"]`).getByRole('link', { name: `Inspect delivery ${delivery.id}` }).click()]);
    expect(new URL(page.url()).pathname).toBe(`/console/webhooks/${sink.endpointId}/deliveries/${delivery.id}`);

    const attempts = page.locator('section.attempt');
    expect(await attempts.count()).toBe(3);
    for (const [i, status] of [[0, 500], [1, 500], [2, 200]] as const) {
      const a = attempts.nth(i);
      expect(await a.locator('h3').textContent()).toBe(`Attempt ${i + 1}: ${status === 200 ? 'succeeded' : 'failed'}`);
      const request = (await a.locator('pre').first().textContent())!;
      expect(request.split('\n')[0]).toBe(`POST ${sink.url}`);
      // The MAC is hidden (with the body it would pass any receiver's check for 5 minutes); its time shows.
      expect(request).toMatch(/^X-Service-Signature: t=\d+,v1=\[redacted\]$/m);
      expect(request).toContain(`Service-Event-Id: ${eventId}`);
      expect(request).toContain(`Service-Delivery-Attempt: ${i + 1}`);
      expect(await a.locator('dl.facts').textContent()).toContain(`HTTP ${status}`);
      // The sink's answer, as the receiver gave it.
      expect(await a.locator('pre').nth(1).textContent()).toBe(status === 200 ? '{"received":true}' : '{"error":"this sink answers 500 (as it was told)"}');
    }
    // The body is the event's, shown once, byte for byte what each attempt sent and the sink verified
    // with the endpoint's secret at that attempt's own time (the page's `t`).
    const raw = (await page.locator('main > pre').last().textContent())!;
    expect(JSON.parse(raw)).toMatchObject({ id: eventId, type: 'message.received' });
    const times = await attempts.evaluateAll((els) => els.map((el) => /X-Service-Signature: t=(\d+)/.exec(el.querySelector('pre')!.textContent!)![1]!));
    const kept = (await svc.call('GET', `/v1/sandbox/sinks/${sink.id}/requests?order=asc`)).body.data as { body: string; signatureValid: boolean; headers: Record<string, string> }[];
    expect(kept.map((r) => [r.body, r.signatureValid, r.headers['x-service-signature']])).toEqual(times.map((t) => [raw, true, signWebhookPayload(raw, sink.secret, Number(t))]));
    // Neither the MAC nor the secret is on the page.
    expect(await page.content()).not.toContain(sink.secret);
    expect(await page.content()).not.toMatch(/v1=[0-9a-f]{64}/);
    expect(await seriousAxeIssues(page), 'inspector').toEqual([]);
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
    await deleteSink(sink.id);
  });

  it("Replay on a delivery makes a new delivery of its event (the count shown) that the sink receives; Replay on the endpoint's page resends its abandoned events", async () => {
    // 410: not retried, so each delivery is abandoned after its one attempt.
    const sink = await createSink({ respond: { status: 410 } });
    const eventIds = [await inbound(), await inbound()];
    await svc.flushWebhooks();
    const before = await deliveries(svc, sink.endpointId);
    expect(before.map((d) => d.status)).toEqual(['abandoned', 'abandoned']);
    const received = async (): Promise<number> => (await svc.call('GET', '/v1/sandbox/sinks')).body.data.find((s: { id: string }) => s.id === sink.id).received;
    expect(await received()).toBe(2);

    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/webhooks/${sink.endpointId}/deliveries/${before[0].id}`);
    await Promise.all([page.waitForURL(/replayed=1/), page.getByRole('button', { name: 'Replay this event' }).click()]);
    expect(await page.getByRole('status').textContent()).toBe('Replayed 1 event: 1 new delivery.');
    await svc.flushWebhooks();
    const afterOne = await deliveries(svc, sink.endpointId);
    expect(afterOne).toHaveLength(3);
    expect(afterOne[0]).toMatchObject({ eventId: before[0].eventId, attempt: 1 });
    expect(await received()).toBe(3);

    // The endpoint's page: every event whose latest delivery here is abandoned (all three are: one per event, the newest).
    await page.goto(`${svc.baseUrl}/console/webhooks/${sink.endpointId}`);
    await page.getByLabel('Events whose latest delivery here is').selectOption('abandoned');
    await Promise.all([page.waitForURL(/replayed=2/), page.getByRole('button', { name: 'Replay', exact: true }).click()]);
    expect(await page.getByRole('status').textContent()).toBe('Replayed 2 events: 2 new deliveries.');
    await svc.flushWebhooks();
    const all = await deliveries(svc, sink.endpointId);
    expect(all).toHaveLength(5);
    // In feed order: the older event's new delivery first (newest first in the log: it is second).
    expect(all.slice(0, 2).map((d) => d.eventId)).toEqual([eventIds[1], eventIds[0]]);
    expect(await received()).toBe(5);
    // The new deliveries are listed on the page it came back to (read after the replay's commit).
    expect(await page.locator('tr[data-delivery-id]').count()).toBe(5);
    expect(await seriousAxeIssues(page), 'deliveries').toEqual([]);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
    await deleteSink(sink.id);
  });

  it("shows a new request on a sink's page without a reload; hostile headers, bodies and answers are text", async () => {
    const sink = await createSink({ respond: { status: 202 } });
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/webhooks`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: sink.id, exact: true }).click()]);
    expect(new URL(page.url()).pathname).toBe(`/console/webhooks/sinks/${sink.id}`);
    await waitListening(page);
    expect(await page.locator('tr[data-sink-request-id]').count()).toBe(0);
    // The page's own document stays: a mark put in it survives the update (no reload).
    await page.evaluate(() => ((window as unknown as { __mark?: number }).__mark = 1));

    // A request of nobody's signing, with markup in a header and the body: kept, shown as text, not verified.
    const forged = await svc.call('POST', `/sinks/${sink.id}`, { key: null, headers: { 'content-type': 'application/json', 'x-note': HOSTILE }, body: { note: HOSTILE } });
    expect(forged.status, forged.text).toBe(202);
    const row = page.locator('tr[data-sink-request-id]');
    await row.first().waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { __mark?: number }).__mark)).toBe(1);
    expect(await row.locator('td.signature').textContent()).toBe('not verified');
    expect(await row.textContent()).toContain('HTTP 202');
    await row.getByText('Headers and body').click();
    const [headers, body] = await row.locator('pre').allTextContents();
    expect(headers).toContain(`x-note: ${HOSTILE}`);
    expect(JSON.parse(body!)).toEqual({ note: HOSTILE });

    // A delivery signed with the endpoint's secret: verified. It comes in live too, above the first.
    await inbound();
    await svc.flushWebhooks();
    await page.waitForFunction(() => document.querySelectorAll('tr[data-sink-request-id]').length === 2, undefined, { timeout: 10_000 });
    expect(await row.first().locator('td.signature').textContent()).toBe('verified');
    expect(await page.evaluate(() => (window as unknown as { __mark?: number }).__mark)).toBe(1);
    await expectInert(w);
    expect(await seriousAxeIssues(page), 'sink').toEqual([]);
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
    await deleteSink(sink.id);
  });

  it("shows a receiver's answer and a URL full of markup as text in the inspector", async () => {
    const url = `${receiver.url}/hook?x=${encodeURIComponent(HOSTILE)}`;
    const made = await svc.call('POST', '/v1/webhooks', { body: { url, events: ['message.received'] } });
    expect(made.status, made.text).toBe(201);
    await inbound();
    await svc.flushWebhooks();
    const [delivery] = await deliveries(svc, made.body.id);
    expect(delivery.status).toBe('succeeded');
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/webhooks/${made.body.id}/deliveries/${delivery.id}`);
    const a = page.locator('section.attempt');
    expect(await a.locator('pre').nth(1).textContent()).toBe(HOSTILE);
    expect((await a.locator('pre').first().textContent())!.split('\n')[0]).toBe(`POST ${new URL(url).href}`);
    await expectInert(w);
    expect(await page.content()).not.toContain(made.body.secret);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
    expect((await svc.call('DELETE', `/v1/webhooks/${made.body.id}`)).status).toBe(204);
  });
});

describe('the webhook inspector over HTTP', () => {
  it("refuses Replay without the form's token, and answers 404 for another account's delivery and sink", async () => {
    const sink = await createSink({ respond: { status: 410 } });
    await inbound();
    await svc.flushWebhooks();
    const [delivery] = await deliveries(svc, sink.endpointId);
    const own = await openConsole(svc);
    const count = async () => (await deliveries(svc, sink.endpointId)).length;

    // The session's cookie without the token: refused, nothing written.
    for (const path of [`/console/webhooks/${sink.endpointId}/replay`, `/console/webhooks/${sink.endpointId}/deliveries/${delivery.id}/resend`]) {
      const refused = await consolePost(svc, path, own.cookie, { status: 'abandoned' });
      expect(refused.status, path).toBe(403);
      const wrong = await consolePost(svc, path, own.cookie, { status: 'abandoned', csrf: `${own.csrf}x` });
      expect(wrong.status, path).toBe(403);
    }
    expect(await count()).toBe(1);

    // Another account (a sub-account of the agency, its own live key) finds none of them.
    const child = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Other shop' } });
    expect(child.status, child.text).toBe(201);
    const key = await svc.call('POST', '/v1/keys', { headers: sub(child.body.id as string), body: { name: 'other', mode: 'live' } });
    expect(key.status, key.text).toBe(201);
    const other = await openConsole(svc, key.body.key as string);
    for (const path of [`/console/webhooks/${sink.endpointId}`, `/console/webhooks/${sink.endpointId}/deliveries/${delivery.id}`, `/console/webhooks/sinks/${sink.id}`]) {
      const page = await consoleGet(svc, path, other.cookie);
      expect(page.status, path).toBe(404);
      expect(page.text).not.toContain(sink.endpointId);
    }
    for (const path of [`/console/webhooks/${sink.endpointId}/replay`, `/console/webhooks/${sink.endpointId}/deliveries/${delivery.id}/resend`]) {
      expect((await consolePost(svc, path, other.cookie, { status: 'abandoned', csrf: other.csrf })).status, path).toBe(404);
    }
    expect(await count()).toBe(1);
    // With its token, the owner's replay goes through.
    const ok = await consolePost(svc, `/console/webhooks/${sink.endpointId}/replay`, own.cookie, { status: 'abandoned', csrf: own.csrf });
    expect(ok.status, ok.text).toBe(303);
    expect(ok.headers.location).toBe(`/console/webhooks/${sink.endpointId}?replayed=1`);
    expect(await count()).toBe(2);
    await deleteSink(sink.id);
  });

  it('a test key replays only test events, as through the API: a live event is left out of the count, and resending it is refused', async () => {
    const made = await svc.call('POST', '/v1/keys', { body: { name: 'console test key', mode: 'test' } });
    expect(made.status, made.text).toBe(201);
    const testKey = made.body.key as string;
    const sink = await createSink({ respond: { status: 410 } }, testKey);
    await inbound(); // an inbound text is live: the outside world sent it
    await svc.flushWebhooks();
    const [delivery] = await deliveries(svc, sink.endpointId);
    expect(delivery.status).toBe('abandoned');
    const session = await openConsole(svc, testKey);
    const replay = await consolePost(svc, `/console/webhooks/${sink.endpointId}/replay`, session.cookie, { status: 'abandoned', csrf: session.csrf });
    expect(replay.headers.location).toBe(`/console/webhooks/${sink.endpointId}?replayed=0`);
    const resend = await consolePost(svc, `/console/webhooks/${sink.endpointId}/deliveries/${delivery.id}/resend`, session.cookie, { csrf: session.csrf });
    expect(resend.status).toBe(403);
    expect(resend.text).toContain('use a live key to resend it');
    expect(await deliveries(svc, sink.endpointId)).toHaveLength(1);
    await deleteSink(sink.id);
  });
});
