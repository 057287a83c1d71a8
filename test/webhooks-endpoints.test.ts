import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { setWebhookStreak, webhookStreak } from './helpers/inspect.js';
import { createEndpoint, deliveries, emit, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';

let svc: TestService;
let rx: Receiver;

beforeEach(async () => {
  svc = await startWebhookService({ dns: { 'hooks.example.test': '10.1.2.3', 'rebind.example.test': '127.0.0.1', 'mixed.example.test': ['93.184.216.34', '192.168.1.5'] } });
  rx = await startReceiver();
});
afterEach(async () => {
  await svc.stop();
  await rx.close();
});

const ENDPOINT_KEYS = ['createdAt', 'description', 'disabledAt', 'disabledReason', 'enabled', 'events', 'id', 'updatedAt', 'url'];

describe('webhook endpoints', () => {
  it('create shows the secret once; list, get, patch, delete', async () => {
    const created = await svc.call('POST', '/v1/webhooks', { body: { url: rx.url, description: 'main' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([...ENDPOINT_KEYS, 'secret'].sort());
    expect(created.body).toMatchObject({ url: rx.url, events: ['*'], enabled: true, description: 'main', disabledAt: null, disabledReason: null });
    expect(created.body.id).toMatch(/^we_/);
    const id = created.body.id;

    const list = await svc.call('GET', '/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(list.body.data).toHaveLength(1);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(ENDPOINT_KEYS);
    expect((await svc.call('GET', '/v1/webhooks?format=array')).body).toHaveLength(1);

    const got = await svc.call('GET', `/v1/webhooks/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();

    const patched = await svc.call('PATCH', `/v1/webhooks/${id}`, { body: { events: ['message.*', 'call.completed'], description: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['message.*', 'call.completed'], description: null });

    const del = await svc.call('DELETE', `/v1/webhooks/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await svc.call('GET', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await svc.call('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('validates the events filter against the catalog', async () => {
    for (const [events, path] of [
      [['message.recieved'], ['body', 'events', 0]],
      [['*', 'message.status'], ['body', 'events']],
      [[], ['body', 'events']],
      [['nope.*'], ['body', 'events', 0]],
    ] as const) {
      const res = await svc.call('POST', '/v1/webhooks', { body: { url: rx.url, events } });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: any) => d.path)).toContainEqual(path);
    }
    expect((await svc.call('POST', '/v1/webhooks', { body: { url: rx.url, events: ['email.*', 'webhook_endpoint.disabled'] } })).status).toBe(201);
    expect((await svc.call('POST', '/v1/webhooks', { body: { url: rx.url, bogus: 1 } })).body.error.details).toEqual([{ path: ['body', 'bogus'], message: 'is not a field of this request' }]);
  });

  it('are scoped to the acting account', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'child' } });
    const asChild = { 'service-subaccount': sub.body.id };
    const mine = await createEndpoint(svc, { url: rx.url });
    const theirs = await createEndpoint(svc, { url: rx.url }, asChild);
    expect((await svc.call('GET', '/v1/webhooks')).body.data.map((e: any) => e.id)).toEqual([mine.id]);
    expect((await svc.call('GET', '/v1/webhooks', { headers: asChild })).body.data.map((e: any) => e.id)).toEqual([theirs.id]);
    expect((await svc.call('GET', `/v1/webhooks/${theirs.id}`)).status).toBe(404);

    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null }, sub.body.id);
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(1);
    expect(await deliveries(svc, mine.id)).toHaveLength(0);
  });

  it('re-enabling clears disabledAt, disabledReason and the failing streak; disabled endpoints get nothing', async () => {
    const ep = await createEndpoint(svc, { url: rx.url });
    const off = await svc.call('PATCH', `/v1/webhooks/${ep.id}`, { body: { enabled: false } });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'manual' });
    expect(off.body.disabledAt).not.toBeNull();
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(0);
    await setWebhookStreak(svc, ep.id, { consecutiveFailures: 70, failingSince: 1 });
    const on = await svc.call('PATCH', `/v1/webhooks/${ep.id}`, { body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
    expect(await webhookStreak(svc, ep.id)).toMatchObject({ consecutiveFailures: 0, failingSince: null });
  });
});

describe('OpenAPI', () => {
  it('documents the webhook and events routes and their decisions', async () => {
    const doc = (await svc.call('GET', '/openapi.json', { key: null })).body;
    for (const [path, method] of [
      ['/v1/webhooks', 'post'],
      ['/v1/webhooks', 'get'],
      ['/v1/webhooks/{id}', 'patch'],
      ['/v1/webhooks/{id}', 'delete'],
      ['/v1/webhooks/{id}/test', 'post'],
      ['/v1/webhooks/{id}/rotate-secret', 'post'],
      ['/v1/webhooks/{id}/deliveries', 'get'],
      ['/v1/webhooks/{id}/deliveries/{deliveryId}/retry', 'post'],
      ['/v1/events', 'get'],
    ]) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/v1/webhooks'].post.description).toMatch(/loopback/);
    expect(doc.paths['/v1/webhooks/{id}/test'].post.summary).toMatch(/webhook_endpoint\.test/);
    expect(doc.paths['/v1/webhooks/{id}/test'].post.description).toMatch(/out-of-band probe: sent at once/);
    expect(doc.paths['/v1/webhooks/{id}/deliveries/{deliveryId}/retry'].post.description).toMatch(/out-of-band probe: sent at once/);
    expect(doc.paths['/v1/events'].get.description).toMatch(/wait/);
    expect(doc.paths['/v1/events'].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name)).toEqual(['after', 'before', 'order', 'limit', 'types', 'wait']);
  });
});

describe('URL safety', () => {
  const refused: Array<[string, RegExp]> = [
    ['http://example.com/hook', /must use https/],
    // A private address over http is refused for where it points (https would not fix it).
    ['http://10.0.0.5/hook', /points at a private address \(10\.0\.0\.5\)/],
    ['http://169.254.169.254/latest/meta-data', /metadata/],
    ['https://10.0.0.1/hook', /private address/],
    ['https://172.20.1.1/hook', /private address/],
    ['https://192.168.0.10/hook', /private address/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://[fe80::1]/hook', /link-local/],
    ['https://[fd00::1]/hook', /private address/],
    ['https://[::ffff:10.0.0.1]/hook', /private address/],
    ['https://0.0.0.0/hook', /unspecified/],
    ['https://[::]/hook', /unspecified/],
    ['https://metadata.google.internal/computeMetadata/v1/', /metadata/],
    ['https://db.internal/hook', /private-use/],
    ['https://intranet/hook', /single-label/],
    ['https://user:pw@example.com/hook', /credentials/],
    ['ftp://example.com/hook', /https/],
    ['not a url', /absolute https URL/],
  ];

  it.each(refused)('refuses %s with validation_error on body.url, creating nothing', async (url, message) => {
    const res = await svc.call('POST', '/v1/webhooks', { body: { url } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toHaveLength(1);
    expect(res.body.error.details[0].path).toEqual(['body', 'url']);
    expect(res.body.error.details[0].message).toMatch(message);
    expect((await svc.call('GET', '/v1/webhooks')).body.data).toEqual([]);
  });

  it('refuses the same on PATCH and leaves the endpoint unchanged', async () => {
    const ep = await createEndpoint(svc, { url: rx.url });
    const res = await svc.call('PATCH', `/v1/webhooks/${ep.id}`, { body: { url: 'https://169.254.169.254/' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toEqual(['body', 'url']);
    expect((await svc.call('GET', `/v1/webhooks/${ep.id}`)).body.url).toBe(rx.url);
  });

  it('accepts https public hosts and http loopback hosts', async () => {
    for (const url of ['https://example.com/hook', 'http://localhost:9/x', 'http://127.0.0.2:9/x', 'http://[::1]:9/x', 'https://hooks.example.test/x']) {
      const res = await svc.call('POST', '/v1/webhooks', { body: { url } });
      expect(res.status, url).toBe(201);
    }
  });

  it('refuses at delivery time a name that resolves to a private address, without connecting', async () => {
    const ep = await createEndpoint(svc, { url: 'https://hooks.example.test/hook' });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'abandoned', attempt: 1, responseStatus: null, nextAttemptAt: null });
    // The safety rule refused it (not the tests' loopback-only guard, which would say "destination guard").
    expect(d.error).toBe('refused: hooks.example.test resolves to a private address (10.1.2.3); refused');
  });

  it('refuses at delivery a public name that resolves to loopback, and a name with any private answer', async () => {
    const a = await createEndpoint(svc, { url: 'https://rebind.example.test/hook' });
    const b = await createEndpoint(svc, { url: 'https://mixed.example.test/hook' });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    expect((await deliveries(svc, a.id))[0].error).toMatch(/^refused: rebind.example.test resolves to a loopback address/);
    expect((await deliveries(svc, b.id))[0].error).toMatch(/^refused: mixed.example.test resolves to a private address \(192.168.1.5\)/);
  });

  it('delivers to localhost through the resolver', async () => {
    await createEndpoint(svc, { url: `http://localhost:${rx.port}/hook` });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await rx.waitFor(1);
    expect(rx.received[0]!.body.type).toBe('message.status');
  });
});
