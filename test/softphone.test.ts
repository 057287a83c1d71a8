import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, expectError } from './messages-fixtures.js';
import { deviceTokenClaims } from './helpers/inspect.js';
import { DEVICE_LABEL_MAX, DEVICE_STALE_AFTER_SECS, DEVICE_TOKEN_TTL_SECS, DEVICE_USER_ID_MAX } from '../src/api/values/calls.js';

// spec: Softphone; contract §6 (Softphone) — devices, login tokens and presence over HTTP on loopback.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const KEYS = ['createdAt', 'id', 'label', 'lastSeenAt', 'presence', 'userId'];
const register = (body: unknown, headers?: Record<string, string>) => svc.call('POST', '/v1/webrtc/devices', { body, headers });
const heartbeat = (id: string, status: unknown, headers?: Record<string, string>) => svc.call('POST', `/v1/webrtc/devices/${id}/presence`, { body: { status }, headers });
const serviceIso = () => new Date(svc.now()).toISOString();

describe('POST and GET /v1/webrtc/devices', () => {
  it('registers a device (201), and the same user and label again gives the same device (200)', async () => {
    const created = await register({ userId: 'alice', label: 'laptop' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(KEYS);
    expect(created.body).toMatchObject({ userId: 'alice', label: 'laptop', presence: 'offline', lastSeenAt: null, createdAt: serviceIso() });
    expect(created.body.id).toMatch(/^dev_/);

    await advance(svc, 5);
    const again = await register({ userId: 'alice', label: 'laptop' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    expect((await register({ userId: 'bob', label: 'laptop' })).status).toBe(201);

    const page = await svc.call('GET', '/v1/webrtc/devices');
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeGreaterThan(0);
    expect(page.body.data.filter((d: any) => d.userId === 'alice' && d.label === 'laptop')).toEqual([created.body]);
    const got = await svc.call('GET', `/v1/webrtc/devices/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
  });

  it('concurrent registrations of one user and label end with one device', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => register({ userId: 'carol', label: 'desk phone' })));
    const ids = new Set(results.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
  });

  it('validates the body and the list query', async () => {
    const cases: Array<[unknown, Array<string | number>]> = [
      [{ label: 'x' }, ['body', 'userId']],
      [{ userId: 'u' }, ['body', 'label']],
      [{ userId: '', label: 'x' }, ['body', 'userId']],
      [{ userId: 'u', label: '' }, ['body', 'label']],
      [{ userId: 'u'.repeat(DEVICE_USER_ID_MAX + 1), label: 'x' }, ['body', 'userId']],
      [{ userId: 'u', label: 'x'.repeat(DEVICE_LABEL_MAX + 1) }, ['body', 'label']],
      [{ userId: 'u', label: 'x', colour: 'red' }, ['body', 'colour']],
    ];
    for (const [body, path] of cases) expectError(await register(body), 400, 'validation_error', path);
    expect((await register({ userId: 'u'.repeat(DEVICE_USER_ID_MAX), label: 'x'.repeat(DEVICE_LABEL_MAX) })).status).toBe(201);
    expectError(await svc.call('GET', '/v1/webrtc/devices?limit=101'), 400, 'validation_error', ['query', 'limit']);
    expectError(await svc.call('GET', '/v1/webrtc/devices', { key: null }), 401, 'unauthorized');
  });

  it('pages newest first', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'devices pages' } });
    const headers = { 'service-subaccount': sub.body.id };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register({ userId: 'u', label: `l${i}` }, headers)).body.id);
    const first = await svc.call('GET', '/v1/webrtc/devices?limit=2', { headers });
    expect(first.body.data.map((d: any) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await svc.call('GET', `/v1/webrtc/devices?limit=2&cursor=${first.body.nextCursor}`, { headers });
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.body.data.map((d: any) => d.id)).toEqual([ids[0]]);
  });
});

describe('presence', () => {
  it('a heartbeat sets presence and lastSeenAt; online reads offline after 60 s of silence', async () => {
    const d = (await register({ userId: 'dave', label: 'browser' })).body;
    const beat = await heartbeat(d.id, 'online');
    expect(beat.status).toBe(200);
    expect(beat.body).toMatchObject({ id: d.id, presence: 'online', lastSeenAt: serviceIso() });

    await advance(svc, DEVICE_STALE_AFTER_SECS);
    expect((await svc.call('GET', `/v1/webrtc/devices/${d.id}`)).body.presence).toBe('online');
    await advance(svc, 1);
    const stale = await svc.call('GET', `/v1/webrtc/devices/${d.id}`);
    expect(stale.body).toMatchObject({ presence: 'offline', lastSeenAt: beat.body.lastSeenAt });
    const listed = (await svc.call('GET', '/v1/webrtc/devices')).body.data.find((x: any) => x.id === d.id);
    expect(listed.presence).toBe('offline');

    const back = await heartbeat(d.id, 'online');
    expect(back.body).toMatchObject({ presence: 'online', lastSeenAt: serviceIso() });
    await advance(svc, 20);
    const hidden = await heartbeat(d.id, 'offline');
    expect(hidden.body).toMatchObject({ presence: 'offline', lastSeenAt: serviceIso() });
  });

  it('validates the status', async () => {
    const d = (await register({ userId: 'dave', label: 'phone' })).body;
    expectError(await heartbeat(d.id, 'away'), 400, 'validation_error', ['body', 'status']);
    expectError(await svc.call('POST', `/v1/webrtc/devices/${d.id}/presence`, { body: {} }), 400, 'validation_error', ['body', 'status']);
    expectError(await heartbeat('dev_missing', 'online'), 404, 'not_found');
  });
});

describe('tokens', () => {
  it('mints a signed token for 10 minutes of wall-clock time, verifiable by the service', async () => {
    const d = (await register({ userId: 'erin', label: 'laptop' })).body;
    await advance(svc, 3600); // the service clock is ahead of the wall clock now
    const before = Date.now();
    const res = await svc.call('POST', `/v1/webrtc/devices/${d.id}/token`);
    const after = Date.now();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'token']);
    const expiresAt = Date.parse(res.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + DEVICE_TOKEN_TTL_SECS * 1000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + DEVICE_TOKEN_TTL_SECS * 1000);
    const claims = await deviceTokenClaims(svc, res.body.token);
    expect(claims).toMatchObject({ deviceId: d.id });
    expect(await deviceTokenClaims(svc, res.body.token, expiresAt)).toBeNull();
    expectError(await svc.call('POST', '/v1/webrtc/devices/dev_missing/token'), 404, 'not_found');
  });

  it('a restart keeps the secret, so tokens stay valid', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-softphone-'));
    try {
      const first = await startTestService({ dataDir });
      const d = (await first.call('POST', '/v1/webrtc/devices', { body: { userId: 'u', label: 'l' } })).body;
      const token = (await first.call('POST', `/v1/webrtc/devices/${d.id}/token`)).body.token as string;
      expect(await deviceTokenClaims(first, token)).not.toBeNull();
      // Another service (its own data) does not accept it.
      expect(await deviceTokenClaims(svc, token)).toBeNull();
      await first.stop();
      const second = await startTestService({ dataDir });
      try {
        expect(await deviceTokenClaims(second, token)).toMatchObject({ deviceId: d.id });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('DELETE /v1/webrtc/devices/{id}, and other accounts', () => {
  it('deletes a device (204); it is gone from the list and every endpoint', async () => {
    const d = (await register({ userId: 'frank', label: 'laptop' })).body;
    const del = await svc.call('DELETE', `/v1/webrtc/devices/${d.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await svc.call('GET', '/v1/webrtc/devices?limit=100')).body.data.map((x: any) => x.id)).not.toContain(d.id);
    expectError(await svc.call('GET', `/v1/webrtc/devices/${d.id}`), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/webrtc/devices/${d.id}`), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/webrtc/devices/${d.id}/token`), 404, 'not_found');
    // The same user and label registers a new device.
    const again = await register({ userId: 'frank', label: 'laptop' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(d.id);
  });

  it("another account's device is not found anywhere", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'softphone child' } });
    const asChild = { 'service-subaccount': sub.body.id };
    const theirs = (await register({ userId: 'gina', label: 'laptop' }, asChild)).body;
    expect((await svc.call('GET', '/v1/webrtc/devices', { headers: asChild })).body.data.map((x: any) => x.id)).toEqual([theirs.id]);
    expect((await svc.call('GET', '/v1/webrtc/devices?limit=100')).body.data.map((x: any) => x.id)).not.toContain(theirs.id);
    expectError(await svc.call('GET', `/v1/webrtc/devices/${theirs.id}`), 404, 'not_found');
    expectError(await heartbeat(theirs.id, 'online'), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/webrtc/devices/${theirs.id}/token`), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/webrtc/devices/${theirs.id}`), 404, 'not_found');
    // The same user and label in the parent account is a device of its own.
    const mine = await register({ userId: 'gina', label: 'laptop' });
    expect(mine.status).toBe(201);
    expect(mine.body.id).not.toBe(theirs.id);
    expect((await svc.call('GET', `/v1/webrtc/devices/${theirs.id}`, { headers: asChild })).status).toBe(200);
  });
});
