// End-to-end tests of the service foundation over real HTTP (contract §1-§3, spec: Authentication,
// Errors): auth, the error envelope, validation, pagination, idempotency, rate limit, sub-accounts,
// keys, bootstrap and the sandbox clock.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellsContaining } from './helpers/inspect.js';
import { apiKeyHash } from './helpers/inspect.js';
import { ONE_REPLICA, startTestService, type TestService } from './helpers/service.js';
import { itOnOneReplica } from './helpers/engines.js';

type CallResult = Awaited<ReturnType<TestService['call']>>;

const STATUS_OF: Record<string, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
};

/** spec: Errors — one envelope, the status matches the code, and (contract §2) a Request-Id. */
function expectError(res: CallResult, status: number, code: string): { code: string; message: string; details?: any } {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  expect(STATUS_OF[code]).toBe(status);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  for (const k of Object.keys(res.body.error)) expect(['code', 'message', 'details']).toContain(k);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['request-id']).toMatch(/\S/);
  return res.body.error;
}

/** The `path`s of a validation_error's details. */
function detailPaths(res: CallResult): unknown[][] {
  const err = expectError(res, 400, 'validation_error');
  expect(Array.isArray(err.details)).toBe(true);
  for (const d of err.details) {
    expect(Array.isArray(d.path)).toBe(true);
    expect(typeof d.message).toBe('string');
  }
  return err.details.map((d: { path: unknown[] }) => d.path);
}

const sub = (id: string) => ({ 'service-subaccount': id });

/** Every key id of the account (or of a sub-account through the header), following every page. */
async function allKeyIds(svc: TestService, opts: { key?: string; headers?: Record<string, string> } = {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res: CallResult = await svc.call('GET', `/v1/keys?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, opts);
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((k: { id: string }) => k.id));
    if (!res.body.hasMore) return ids;
    cursor = res.body.nextCursor;
  }
  throw new Error('too many pages');
}

async function allSubaccountIds(svc: TestService): Promise<string[]> {
  const res = await svc.call('GET', '/v1/subaccounts?limit=100');
  expect(res.status).toBe(200);
  expect(res.body.hasMore).toBe(false);
  return res.body.data.map((s: { id: string }) => s.id);
}

async function newSubaccount(svc: TestService, name = `child ${randomUUID().slice(0, 8)}`): Promise<{ id: string; name: string; status: string; createdAt: string }> {
  const res = await svc.call('POST', '/v1/subaccounts', { body: { name } });
  expect(res.status).toBe(201);
  return res.body;
}

async function createKey(svc: TestService, body: { name: string; mode?: 'live' | 'test' }, headers?: Record<string, string>) {
  const res = await svc.call('POST', '/v1/keys', { body, headers });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; mode: string; prefix: string; key: string; createdAt: string };
}

async function clockNow(svc: TestService): Promise<number> {
  const res = await svc.call('GET', '/v1/sandbox/clock');
  expect(res.status).toBe(200);
  return Date.parse(res.body.now);
}

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});

afterAll(async () => {
  await svc?.stop();
});

describe('readiness', () => {
  it('GET /healthz answers 200 {ok:true} without auth, with a Request-Id', async () => {
    const res = await svc.call('GET', '/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers['request-id']).toMatch(/\S/);
  });

  it('gives every response its own Request-Id', async () => {
    const a = await svc.call('GET', '/v1/keys');
    const b = await svc.call('GET', '/v1/keys');
    expect(a.headers['request-id']).toMatch(/\S/);
    expect(b.headers['request-id']).toMatch(/\S/);
    expect(a.headers['request-id']).not.toBe(b.headers['request-id']);
  });
});

describe('authentication (spec: Authentication 1, 4)', () => {
  it('refuses a request without Authorization with 401 unauthorized', async () => {
    const res = await svc.call('GET', '/v1/keys', { key: null });
    expectError(res, 401, 'unauthorized');
  });

  it.each([
    ['Bearer foo'],
    ['Basic x'],
    ['Basic c2tfbGl2ZV94eHg6'],
    ['Bearer'],
    ['sk_live_0123456789abcdefghijABCDEFGHIJkl'],
  ])('refuses the malformed credential %j with 401', async (authorization) => {
    const res = await svc.call('GET', '/v1/keys', { key: null, headers: { authorization } });
    expectError(res, 401, 'unauthorized');
  });

  it('refuses a well-formed but unknown key with 401', async () => {
    for (const key of [`sk_live_${'a'.repeat(32)}`, `sk_test_${'Z9'.repeat(16)}`]) {
      const res = await svc.call('GET', '/v1/keys', { key });
      expectError(res, 401, 'unauthorized');
    }
  });

  it('accepts the test key (sk_test_) as a credential of the same account', async () => {
    expect(svc.bootstrap.testKey).toMatch(/^sk_test_/);
    const viaTest = await svc.call('GET', '/v1/keys?limit=100', { key: svc.bootstrap.testKey });
    expect(viaTest.status).toBe(200);
    const viaLive = await svc.call('GET', '/v1/keys?limit=100');
    expect(viaTest.body.data.map((k: { id: string }) => k.id)).toEqual(viaLive.body.data.map((k: { id: string }) => k.id));
  });

  it('refuses a revoked key with 401 from the very next request (contract §3)', async () => {
    const created = await createKey(svc, { name: 'to revoke' });
    expect((await svc.call('GET', '/v1/keys', { key: created.key })).status).toBe(200);

    const del = await svc.call('DELETE', `/v1/keys/${created.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');

    const after = await svc.call('GET', '/v1/keys', { key: created.key });
    expectError(after, 401, 'unauthorized');
    // Also for writes, not only reads.
    const write = await svc.call('POST', '/v1/keys', { key: created.key, body: { name: 'nope' } });
    expectError(write, 401, 'unauthorized');

    const listed = (await svc.call('GET', '/v1/keys?limit=100')).body.data.find((k: { id: string }) => k.id === created.id);
    expect(listed.revokedAt).toEqual(expect.any(String));
    // Revoking twice is harmless.
    expect((await svc.call('DELETE', `/v1/keys/${created.id}`)).status).toBe(204);
  });

  it('authenticates before routing: an unknown route without a key is 401, with a Request-Id', async () => {
    const res = await svc.call('GET', '/v1/no-such-thing', { key: null });
    expectError(res, 401, 'unauthorized');
  });
});

describe('the error envelope and request validation (spec: Errors, contract §2)', () => {
  it('answers an unknown route with 404 not_found in the envelope', async () => {
    for (const path of ['/v1/no-such-thing', '/v2/keys', '/v1/keys/key_x/extra']) {
      const res = await svc.call('GET', path);
      expectError(res, 404, 'not_found');
    }
  });

  it('answers a known path with the wrong method with 404 and an Allow header', async () => {
    const put = await svc.call('PUT', '/v1/keys', { body: { name: 'x' } });
    expectError(put, 404, 'not_found');
    const allow = String(put.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim())
      .sort();
    expect(allow).toEqual(['GET', 'POST']);

    const patchKey = await svc.call('PATCH', '/v1/keys/key_abc', { body: {} });
    expectError(patchKey, 404, 'not_found');
    expect(String(patchKey.headers.allow)).toContain('DELETE');
  });

  it('answers a URL with broken percent-encoding with the envelope and a Request-Id', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await svc.call(method, '/v1/keys/%E0%A4%A');
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expectError(res, res.status, res.body?.error?.code);
      expect(['validation_error', 'not_found']).toContain(res.body.error.code);
    }
  });

  it('rejects malformed JSON with 400 validation_error on ["body"] and changes nothing', async () => {
    const before = await allKeyIds(svc);
    const res = await svc.call('POST', '/v1/keys', { rawBody: '{"name": "x",', headers: { 'content-type': 'application/json' } });
    expect(detailPaths(res)[0]).toEqual(['body']);
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('rejects a body over 3 MB with 400 validation_error and changes nothing', async () => {
    const before = await allKeyIds(svc);
    const big = JSON.stringify({ name: 'x'.repeat(Math.ceil(3.1 * 1024 * 1024)) });
    expect(Buffer.byteLength(big)).toBeGreaterThan(3 * 1024 * 1024);
    const res = await svc.call('POST', '/v1/keys', { rawBody: big, headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'validation_error');
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('accepts a body just under 3 MB as far as the size limit goes (it then fails on the field, not the size)', async () => {
    const before = await allKeyIds(svc);
    const body = JSON.stringify({ name: 'x'.repeat(2.9 * 1024 * 1024) });
    const res = await svc.call('POST', '/v1/keys', { rawBody: body, headers: { 'content-type': 'application/json' } });
    // name is limited to 100 characters: the failure names the field, which proves the body was read.
    expect(detailPaths(res)).toEqual([['body', 'name']]);
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('rejects an unknown field, naming it, and changes nothing', async () => {
    const before = await allKeyIds(svc);
    const res = await svc.call('POST', '/v1/keys', { body: { name: 'ok', colour: 'blue' } });
    expect(detailPaths(res)).toContainEqual(['body', 'colour']);
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('names every failing field: name "" and mode "x"', async () => {
    const before = await allKeyIds(svc);
    const res = await svc.call('POST', '/v1/keys', { body: { name: '', mode: 'x' } });
    const paths = detailPaths(res);
    expect(paths).toContainEqual(['body', 'name']);
    expect(paths).toContainEqual(['body', 'mode']);
    expect(paths).toHaveLength(2);

    const missing = await svc.call('POST', '/v1/keys', { body: { mode: 'live' } });
    expect(detailPaths(missing)).toEqual([['body', 'name']]);
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('says a present value of the wrong type has the wrong type, not that it is "required"', async () => {
    const res = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: '5' } });
    const err = expectError(res, 400, 'validation_error');
    expect(err.details[0].path).toEqual(['body', 'seconds']);
    expect(err.details[0].message).not.toBe('is required');
    expect(err.details[0].message).toMatch(/number/i);

    const missing = await svc.call('POST', '/v1/sandbox/clock/advance', { body: {} });
    expect(expectError(missing, 400, 'validation_error').details[0].message).toBe('is required');
  });

  it('rejects a body that is not JSON by content type, and changes nothing', async () => {
    const before = await allKeyIds(svc);
    const res = await svc.call('POST', '/v1/keys', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectError(res, 400, 'validation_error');
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it.each([['0'], ['101'], ['abc'], ['-1'], ['2.5']])('rejects limit=%s on ["query","limit"]', async (limit) => {
    const res = await svc.call('GET', `/v1/keys?limit=${limit}`);
    expect(detailPaths(res)).toEqual([['query', 'limit']]);
  });

  it('accepts limit 1 and 100', async () => {
    expect((await svc.call('GET', '/v1/keys?limit=1')).body.data).toHaveLength(1);
    expect((await svc.call('GET', '/v1/keys?limit=100')).status).toBe(200);
  });

  it.each([['zzz'], ['not a cursor'], [Buffer.from('12.x').toString('base64url')], [Buffer.from('{"offset":20}').toString('base64url')]])(
    'rejects the malformed cursor %j on ["query","cursor"]',
    async (cursor) => {
      const res = await svc.call('GET', `/v1/keys?cursor=${encodeURIComponent(cursor)}`);
      expect(detailPaths(res)).toEqual([['query', 'cursor']]);
    },
  );

  it('rejects an Idempotency-Key that is not printable ASCII or too long, and changes nothing', async () => {
    const before = await allKeyIds(svc);
    const res = await svc.call('POST', '/v1/keys', { body: { name: 'x' }, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(detailPaths(res)).toEqual([['headers', 'idempotency-key']]);
    expect(await allKeyIds(svc)).toEqual(before);
  });
});

describe('pagination (contract §2: keyset, limit 1..100, stable cursors)', () => {
  it('pages 47 keys as 20/20/7, newest first, with no duplicate and no gap', async () => {
    const child = await newSubaccount(svc);
    const created: string[] = [];
    for (let i = 0; i < 20; i++) created.push((await createKey(svc, { name: `p${i}` }, sub(child.id))).id);
    // Half the keys share a frozen clock tick, the rest come later: the order must hold for both.
    await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } });
    for (let i = 20; i < 47; i++) created.push((await createKey(svc, { name: `p${i}` }, sub(child.id))).id);

    const pages: string[][] = [];
    let cursor: string | null = null;
    for (;;) {
      const res: CallResult = await svc.call('GET', `/v1/keys?limit=20${cursor ? `&cursor=${cursor}` : ''}`, { headers: sub(child.id) });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'hasMore', 'nextCursor']);
      pages.push(res.body.data.map((k: { id: string }) => k.id));
      if (!res.body.hasMore) {
        expect(res.body.nextCursor).toBeNull();
        break;
      }
      expect(typeof res.body.nextCursor).toBe('string');
      cursor = res.body.nextCursor;
    }
    expect(pages.map((p) => p.length)).toEqual([20, 20, 7]);
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(47);
    expect(seen).toEqual([...created].reverse());

    // The default page size is 20.
    const dflt = await svc.call('GET', '/v1/keys', { headers: sub(child.id) });
    expect(dflt.body.data).toHaveLength(20);
    expect(dflt.body.hasMore).toBe(true);
  });

  it('keeps cursors stable when keys are inserted between page fetches', async () => {
    const child = await newSubaccount(svc);
    const original: string[] = [];
    for (let i = 0; i < 25; i++) original.push((await createKey(svc, { name: `s${i}` }, sub(child.id))).id);

    const inserted: string[] = [];
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: CallResult = await svc.call('GET', `/v1/keys?limit=10${cursor ? `&cursor=${cursor}` : ''}`, { headers: sub(child.id) });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((k: { id: string }) => k.id));
      // New rows arrive between fetches: one on the same (frozen) tick, one after the clock moved.
      inserted.push((await createKey(svc, { name: `new${page}a` }, sub(child.id))).id);
      if (page === 0) await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 5 } });
      inserted.push((await createKey(svc, { name: `new${page}b` }, sub(child.id))).id);
      if (!res.body.hasMore) break;
      cursor = res.body.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...original].reverse());
    for (const id of inserted) expect(seen).not.toContain(id);

    // A fresh first page shows the newest insert on top.
    const fresh = await svc.call('GET', '/v1/keys?limit=1', { headers: sub(child.id) });
    expect(fresh.body.data[0].id).toBe(inserted[inserted.length - 1]);
  });

  it('returns a bare array for ?format=array and for the Accept media type', async () => {
    const child = await newSubaccount(svc);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createKey(svc, { name: `a${i}` }, sub(child.id))).id);

    const viaQuery = await svc.call('GET', '/v1/keys?format=array', { headers: sub(child.id) });
    expect(viaQuery.status).toBe(200);
    expect(Array.isArray(viaQuery.body)).toBe(true);
    expect(viaQuery.body.map((k: { id: string }) => k.id)).toEqual([...ids].reverse());

    const viaAccept = await svc.call('GET', '/v1/keys', { headers: { ...sub(child.id), accept: 'application/vnd.service.list+json' } });
    expect(viaAccept.status).toBe(200);
    expect(Array.isArray(viaAccept.body)).toBe(true);
    expect(viaAccept.body.map((k: { id: string }) => k.id)).toEqual([...ids].reverse());

    const limited = await svc.call('GET', '/v1/keys?format=array&limit=2', { headers: sub(child.id) });
    expect(limited.body).toHaveLength(2);

    const subs = await svc.call('GET', '/v1/subaccounts?format=array');
    expect(Array.isArray(subs.body)).toBe(true);
    expect(subs.body.map((s: { id: string }) => s.id)).toContain(child.id);

    const envelope = await svc.call('GET', '/v1/keys', { headers: sub(child.id) });
    expect(Array.isArray(envelope.body)).toBe(false);
    expect(envelope.body.data).toHaveLength(3);
  });

  it('rejects an unknown format value', async () => {
    const res = await svc.call('GET', '/v1/keys?format=csv');
    expect(detailPaths(res)).toEqual([['query', 'format']]);
  });
});

describe('idempotency (contract §2)', () => {
  it('replays the same key and body: same response, Idempotent-Replayed, one key created', async () => {
    const before = await allKeyIds(svc);
    const idem = { 'idempotency-key': `k-${randomUUID()}` };
    const first = await svc.call('POST', '/v1/keys', { body: { name: 'idem', mode: 'test' }, headers: idem });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // The same body with its keys in another order is the same request.
    const second = await svc.call('POST', '/v1/keys', { rawBody: '{"mode":"test","name":"idem"}', headers: { ...idem, 'content-type': 'application/json' } });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.createdAt).toBe(first.body.createdAt);

    const after = await allKeyIds(svc);
    expect(after).toHaveLength(before.length + 1);
    expect(after).toContain(first.body.id);
  });

  it('creates exactly one key when the same request races itself', async () => {
    const child = await newSubaccount(svc);
    const headers = { ...sub(child.id), 'idempotency-key': `r-${randomUUID()}` };
    const results = await Promise.all(Array.from({ length: 8 }, () => svc.call('POST', '/v1/keys', { body: { name: 'race' }, headers })));
    const created = results.filter((r) => r.status === 201);
    // Each one is the original, a replay of it, or 409 "still in progress" (contract §2).
    for (const r of results) expect([201, 409]).toContain(r.status);
    for (const r of results.filter((x) => x.status === 409)) expectError(r, 409, 'conflict');
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await allKeyIds(svc, { headers: sub(child.id) })).toEqual([created[0]!.body.id]);
  });

  it('replays a sub-account creation with exactly the original status and body', async () => {
    const before = await allSubaccountIds(svc);
    const idem = { 'idempotency-key': `s-${randomUUID()}` };
    const first = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Idem Co' }, headers: idem });
    const second = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Idem Co' }, headers: idem });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await allSubaccountIds(svc)).toHaveLength(before.length + 1);
  });

  it('answers the same key with a different body with 409 conflict and creates nothing', async () => {
    const idem = { 'idempotency-key': `c-${randomUUID()}` };
    expect((await svc.call('POST', '/v1/keys', { body: { name: 'one' }, headers: idem })).status).toBe(201);
    const before = await allKeyIds(svc);
    const res = await svc.call('POST', '/v1/keys', { body: { name: 'two' }, headers: idem });
    expectError(res, 409, 'conflict');
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('scopes keys by path: the same key on another path is independent', async () => {
    const idem = { 'idempotency-key': `p-${randomUUID()}` };
    const key = await svc.call('POST', '/v1/keys', { body: { name: 'pathscope' }, headers: idem });
    expect(key.status).toBe(201);
    const account = await svc.call('POST', '/v1/subaccounts', { body: { name: 'pathscope' }, headers: idem });
    expect(account.status).toBe(201);
    expect(account.headers['idempotent-replayed']).toBeUndefined();
    expect(account.body.status).toBe('active');
    expect(account.body.id).not.toBe(key.body.id);
  });

  it('does not reserve a key for a failed request: a corrected retry with the same key works', async () => {
    const idem = { 'idempotency-key': `f-${randomUUID()}` };
    const before = await allKeyIds(svc);
    const bad = await svc.call('POST', '/v1/keys', { body: { name: '' }, headers: idem });
    expectError(bad, 400, 'validation_error');
    const malformed = await svc.call('POST', '/v1/keys', { rawBody: '{', headers: { ...idem, 'content-type': 'application/json' } });
    expectError(malformed, 400, 'validation_error');
    expect(await allKeyIds(svc)).toEqual(before);

    const good = await svc.call('POST', '/v1/keys', { body: { name: 'corrected' }, headers: idem });
    expect(good.status).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    const replay = await svc.call('POST', '/v1/keys', { body: { name: 'corrected' }, headers: idem });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(good.body.id);
  });

  it('does not reserve a key for a request the handler refused (403)', async () => {
    const child = await newSubaccount(svc);
    const childKey = await createKey(svc, { name: 'child key' }, sub(child.id));
    const idem = { 'idempotency-key': `h-${randomUUID()}` };
    const refused = await svc.call('POST', '/v1/subaccounts', { key: childKey.key, body: { name: 'x' }, headers: idem });
    expectError(refused, 403, 'forbidden');
    // Same account, same path, same key, another body: not a conflict, because nothing was recorded.
    const again = await svc.call('POST', '/v1/subaccounts', { key: childKey.key, body: { name: 'y' }, headers: idem });
    expectError(again, 403, 'forbidden');
  });

  it('scopes keys per account: a sub-account (through the header) has its own', async () => {
    const child = await newSubaccount(svc);
    const idem = { 'idempotency-key': `a-${randomUUID()}` };
    const asAgency = await svc.call('POST', '/v1/keys', { body: { name: 'scoped' }, headers: idem });
    const asChild = await svc.call('POST', '/v1/keys', { body: { name: 'scoped' }, headers: { ...idem, ...sub(child.id) } });
    expect(asAgency.status).toBe(201);
    expect(asChild.status).toBe(201);
    expect(asChild.headers['idempotent-replayed']).toBeUndefined();
    expect(asChild.body.id).not.toBe(asAgency.body.id);
    expect(await allKeyIds(svc, { headers: sub(child.id) })).toEqual([asChild.body.id]);
    const agencyKeys = await allKeyIds(svc);
    expect(agencyKeys).toContain(asAgency.body.id);
    expect(agencyKeys).not.toContain(asChild.body.id);
  });

  it('replays a non-create POST too: a replayed clock advance does not move the clock again', async () => {
    const idem = { 'idempotency-key': `t-${randomUUID()}` };
    const start = await clockNow(svc);
    const first = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 }, headers: idem });
    const second = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 }, headers: idem });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await clockNow(svc)).toBe(start + 60_000);
  });

  it('keeps a key for 24 hours of service time, then forgets it', async () => {
    const idem = { 'idempotency-key': `d-${randomUUID()}` };
    expect((await svc.call('POST', '/v1/keys', { body: { name: 'day one' }, headers: idem })).status).toBe(201);
    await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 23 * 3600 } });
    expectError(await svc.call('POST', '/v1/keys', { body: { name: 'day two' }, headers: idem }), 409, 'conflict');
    await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 3600 + 1 } });
    const later = await svc.call('POST', '/v1/keys', { body: { name: 'day two' }, headers: idem });
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('keys (contract §3)', () => {
  it('returns the key once on create, in the live or test format', async () => {
    const live = await createKey(svc, { name: 'live one' });
    expect(live).toEqual({ id: expect.stringMatching(/^key_/), name: 'live one', mode: 'live', prefix: expect.any(String), key: expect.stringMatching(/^sk_live_[0-9A-Za-z]+$/), createdAt: expect.any(String) });
    expect(live.key.startsWith(live.prefix)).toBe(true);
    expect(live.prefix.length).toBeLessThan(live.key.length - 16);
    expect(Number.isNaN(Date.parse(live.createdAt))).toBe(false);

    const test = await createKey(svc, { name: 'test one', mode: 'test' });
    expect(test.mode).toBe('test');
    expect(test.key).toMatch(/^sk_test_/);
    expect((await svc.call('GET', '/v1/keys', { key: test.key })).status).toBe(200);
  });

  it('never lists the key itself', async () => {
    const created = await createKey(svc, { name: 'secret holder' });
    const res = await svc.call('GET', '/v1/keys?limit=100');
    expect(res.text).not.toContain(created.key);
    const row = res.body.data.find((k: { id: string }) => k.id === created.id);
    expect(row).toEqual({ id: created.id, name: 'secret holder', mode: 'live', prefix: created.prefix, createdAt: created.createdAt, lastUsedAt: null, revokedAt: null });
    for (const k of res.body.data) expect(k).not.toHaveProperty('key');
  });

  it('records lastUsedAt once a key is used', async () => {
    const created = await createKey(svc, { name: 'used' });
    await svc.call('GET', '/v1/keys', { key: created.key });
    const row = (await svc.call('GET', '/v1/keys?limit=100')).body.data.find((k: { id: string }) => k.id === created.id);
    expect(row.lastUsedAt).toEqual(expect.any(String));
  });

  it('answers 404 for a key id that does not exist', async () => {
    expectError(await svc.call('DELETE', '/v1/keys/key_doesnotexist'), 404, 'not_found');
  });

  it('stores keys hashed: no column of the database holds the plaintext, and hash is 64 hex chars', async () => {
    const created = await createKey(svc, { name: 'hashed' });
    const hash = await apiKeyHash(svc, created.id);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(await svc.sql.tables()).toContain('api_keys');
    expect(await cellsContaining(svc, created.key)).toEqual([]);
  });

  it('does not store the plaintext of a key created with an Idempotency-Key', async () => {
    const res = await svc.call('POST', '/v1/keys', { body: { name: 'idem hashed' }, headers: { 'idempotency-key': `x-${randomUUID()}` } });
    expect(res.status).toBe(201);
    expect(await cellsContaining(svc, res.body.key)).toEqual([]);
  });
});

describe('sub-accounts and the agency (contract §3)', () => {
  it('creates a sub-account (201) that the agency can list and get', async () => {
    const res = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Acme Dental' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/), name: 'Acme Dental', status: 'active', createdAt: expect.any(String) });
    const got = await svc.call('GET', `/v1/subaccounts/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect(await allSubaccountIds(svc)).toContain(res.body.id);
  });

  it('refuses sub-account creation with an invalid body and changes nothing', async () => {
    const before = await allSubaccountIds(svc);
    expect(detailPaths(await svc.call('POST', '/v1/subaccounts', { body: { name: '' } }))).toEqual([['body', 'name']]);
    expect(detailPaths(await svc.call('POST', '/v1/subaccounts', { body: { name: 'x', parent: 'y' } }))).toContainEqual(['body', 'parent']);
    expect(await allSubaccountIds(svc)).toEqual(before);
  });

  it('acts as the child with the agency key and Service-Subaccount', async () => {
    const child = await newSubaccount(svc);
    expect(await allKeyIds(svc, { headers: sub(child.id) })).toEqual([]);
    const childKey = await createKey(svc, { name: 'made for the child' }, sub(child.id));
    expect(await allKeyIds(svc, { headers: sub(child.id) })).toEqual([childKey.id]);
    expect(await allKeyIds(svc)).not.toContain(childKey.id);
    // The child's own key sees the child's keys.
    expect(await allKeyIds(svc, { key: childKey.key })).toEqual([childKey.id]);
  });

  it('forbids sub-account management to a non-agency key (403)', async () => {
    const child = await newSubaccount(svc);
    const childKey = await createKey(svc, { name: 'child' }, sub(child.id));
    const before = await allSubaccountIds(svc);
    expectError(await svc.call('POST', '/v1/subaccounts', { key: childKey.key, body: { name: 'grandchild' } }), 403, 'forbidden');
    expectError(await svc.call('GET', '/v1/subaccounts', { key: childKey.key }), 403, 'forbidden');
    expectError(await svc.call('GET', '/v1/agency/summary', { key: childKey.key }), 403, 'forbidden');
    expect(await allSubaccountIds(svc)).toEqual(before);
  });

  it('answers 403 for an unknown or non-child id in Service-Subaccount', async () => {
    for (const id of [randomUUID(), svc.bootstrap.accountId, 'not-a-uuid']) {
      expectError(await svc.call('GET', '/v1/keys', { headers: sub(id) }), 403, 'forbidden');
    }
    const before = await allKeyIds(svc);
    expectError(await svc.call('POST', '/v1/keys', { body: { name: 'x' }, headers: sub(randomUUID()) }), 403, 'forbidden');
    expect(await allKeyIds(svc)).toEqual(before);
  });

  it('answers 403 when a non-agency key sends Service-Subaccount', async () => {
    const child = await newSubaccount(svc);
    const childKey = await createKey(svc, { name: 'child' }, sub(child.id));
    expectError(await svc.call('GET', '/v1/keys', { key: childKey.key, headers: sub(child.id) }), 403, 'forbidden');
    const other = await newSubaccount(svc);
    expectError(await svc.call('GET', '/v1/keys', { key: childKey.key, headers: sub(other.id) }), 403, 'forbidden');
  });

  it('rejects Service-Subaccount on agency-level routes with 400 on ["headers","service-subaccount"]', async () => {
    const child = await newSubaccount(svc);
    const before = await allSubaccountIds(svc);
    const cases: Array<[string, string, unknown]> = [
      ['GET', '/v1/subaccounts', undefined],
      ['POST', '/v1/subaccounts', { name: 'via header' }],
      ['GET', `/v1/subaccounts/${child.id}`, undefined],
      ['PATCH', `/v1/subaccounts/${child.id}`, { name: 'renamed via header' }],
      ['GET', '/v1/agency/summary', undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await svc.call(method, path, { body, headers: sub(child.id) });
      expect(detailPaths(res), `${method} ${path}`).toEqual([['headers', 'service-subaccount']]);
    }
    // Whatever the key: a child's own key sending the header gets the same 400.
    const childKey = await createKey(svc, { name: 'child' }, sub(child.id));
    expect(detailPaths(await svc.call('GET', '/v1/agency/summary', { key: childKey.key, headers: sub(child.id) }))).toEqual([['headers', 'service-subaccount']]);
    expect(await allSubaccountIds(svc)).toEqual(before);
    expect((await svc.call('GET', `/v1/subaccounts/${child.id}`)).body.name).toBe(child.name);
  });

  it('refuses a suspended sub-account (403) and serves it again once resumed', async () => {
    const child = await newSubaccount(svc);
    const childKey = await createKey(svc, { name: 'child' }, sub(child.id));

    const suspended = await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: { status: 'suspended' } });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ id: child.id, status: 'suspended', name: child.name });
    expectError(await svc.call('GET', '/v1/keys', { headers: sub(child.id) }), 403, 'forbidden');
    expectError(await svc.call('POST', '/v1/keys', { body: { name: 'x' }, headers: sub(child.id) }), 403, 'forbidden');
    // Its own key is refused too: a suspended account does nothing.
    expectError(await svc.call('GET', '/v1/keys', { key: childKey.key }), 403, 'forbidden');

    const resumed = await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: { status: 'active' } });
    expect(resumed.body.status).toBe('active');
    expect(await allKeyIds(svc, { headers: sub(child.id) })).toEqual([childKey.id]);
    expect((await svc.call('GET', '/v1/keys', { key: childKey.key })).status).toBe(200);
  });

  it('validates PATCH bodies and changes nothing on failure', async () => {
    const child = await newSubaccount(svc);
    expectError(await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: {} }), 400, 'validation_error');
    expect(detailPaths(await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: { name: '' } }))).toEqual([['body', 'name']]);
    expect(detailPaths(await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: { status: 'deleted' } }))).toEqual([['body', 'status']]);
    expect(detailPaths(await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: { name: 'ok', plan: 'pro' } }))).toContainEqual(['body', 'plan']);
    const got = await svc.call('GET', `/v1/subaccounts/${child.id}`);
    expect(got.body).toEqual(child);

    const renamed = await svc.call('PATCH', `/v1/subaccounts/${child.id}`, { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...child, name: 'Renamed' });
  });

  it('answers 404 for a sub-account id that is not the agency\'s', async () => {
    const id = randomUUID();
    expectError(await svc.call('GET', `/v1/subaccounts/${id}`), 404, 'not_found');
    expectError(await svc.call('PATCH', `/v1/subaccounts/${id}`, { body: { name: 'x' } }), 404, 'not_found');
  });

  it('shows another account\'s key as not_found (spec: Authentication 6)', async () => {
    const child = await newSubaccount(svc);
    const childKey = await createKey(svc, { name: 'child' }, sub(child.id));
    // The agency acting as itself does not own the child's key.
    expectError(await svc.call('DELETE', `/v1/keys/${childKey.id}`), 404, 'not_found');
    // Nor does the child own the agency's bootstrap key.
    const agencyKeyId = (await svc.call('GET', '/v1/keys?limit=100')).body.data.find((k: { name: string }) => k.name === 'bootstrap live key').id;
    expectError(await svc.call('DELETE', `/v1/keys/${agencyKeyId}`, { key: childKey.key }), 404, 'not_found');
    // Both keys still work.
    expect((await svc.call('GET', '/v1/keys', { key: childKey.key })).status).toBe(200);
    expect((await svc.call('GET', '/v1/keys')).status).toBe(200);
  });

  it('lists every child in the agency summary with zero counts', async () => {
    const a = await newSubaccount(svc, 'Summary A');
    const b = await newSubaccount(svc, 'Summary B');
    const res = await svc.call('GET', '/v1/agency/summary');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['subaccounts']);
    const ids = await allSubaccountIds(svc);
    expect(res.body.subaccounts.map((s: { id: string }) => s.id).sort()).toEqual([...ids].sort());
    for (const child of [a, b]) {
      expect(res.body.subaccounts).toContainEqual({ id: child.id, name: child.name, status: 'active', numbers: 0, messagesThisMonth: 0, spendThisMonthCents: 0 });
    }
  });
});

describe('the sandbox clock (contract §1)', () => {
  it('reads the manual clock and advances it by exactly the seconds asked', async () => {
    const res = await svc.call('GET', '/v1/sandbox/clock');
    expect(res.status).toBe(200);
    expect(res.body.mode).toBe('manual');
    const before = Date.parse(res.body.now);
    expect(Number.isNaN(before)).toBe(false);
    // A manual clock does not move by itself.
    await new Promise((r) => setTimeout(r, 20));
    expect(await clockNow(svc)).toBe(before);

    const adv = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 3600 } });
    expect(adv.status).toBe(200);
    expect(Date.parse(adv.body.now)).toBe(before + 3_600_000);
    expect(await clockNow(svc)).toBe(before + 3_600_000);
  });

  it.each([[{ seconds: 0 }], [{ seconds: -5 }], [{ seconds: 'ten' }], [{ seconds: 1.5 }], [{}]])('rejects %j on ["body","seconds"] and leaves the clock alone', async (body) => {
    const before = await clockNow(svc);
    const res = await svc.call('POST', '/v1/sandbox/clock/advance', { body });
    expect(detailPaths(res)).toEqual([['body', 'seconds']]);
    expect(await clockNow(svc)).toBe(before);
  });

  it('needs a key', async () => {
    expectError(await svc.call('GET', '/v1/sandbox/clock', { key: null }), 401, 'unauthorized');
    expectError(await svc.call('POST', '/v1/sandbox/clock/advance', { key: null, body: { seconds: 1 } }), 401, 'unauthorized');
  });
});

describe('rate limit (contract §2: token bucket per key)', () => {
  let limited: TestService;
  beforeAll(async () => {
    // A token back every 5 s: a loaded machine serving the 15 requests slowly cannot earn one mid-burst.
    // One replica even in the replicas pass: the test reads one bucket's count (SINGLE_REPLICA_TESTS).
    limited = await startTestService({ ...ONE_REPLICA, rateLimit: { ratePerSec: 0.2, burst: 10 } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  itOnOneReplica('allows a burst of 10, then answers 429 rate_limited with Retry-After; another key is unaffected', () => limited, async () => {
    const started = Date.now();
    const results: CallResult[] = [];
    for (let i = 0; i < 15; i++) results.push(await limited.call('GET', '/v1/keys?limit=1'));
    const elapsedSec = (Date.now() - started) / 1000;

    const firstTen = results.slice(0, 10);
    for (const r of firstTen) {
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-limit']).toBe('10');
      expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }
    const remaining = firstTen.map((r) => Number(r.headers['ratelimit-remaining']));
    expect(remaining[0]).toBe(9);
    expect(remaining[9]).toBe(0);
    for (let i = 1; i < remaining.length; i++) expect(remaining[i]).toBeLessThan(remaining[i - 1]!);

    const rest = results.slice(10);
    // The bucket refills a token every 5 s: only a very slow run could earn one back meanwhile.
    const allowedRest = rest.filter((r) => r.status === 200).length;
    expect(allowedRest).toBeLessThanOrEqual(Math.floor(elapsedSec * 0.2));
    const refused = rest.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expectError(r, 429, 'rate_limited');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.headers['ratelimit-remaining']).toBe('0');
      expect(r.headers['ratelimit-limit']).toBe('10');
    }

    const other = await limited.call('GET', '/v1/keys?limit=1', { key: limited.bootstrap.testKey });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('9');
  });
});

describe('bootstrap and restarts (contract §1)', () => {
  let dataDir: string;
  let first: TestService | undefined;
  let second: TestService | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes bootstrap.json (0600) on the first start, reuses the keys on the next, and keeps idempotency keys', async () => {
    first = await startTestService({ dataDir });
    expect(first.bootstrapCreated).toBe(true);
    const file = join(dataDir, 'bootstrap.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const boot = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(boot).sort()).toEqual(['accountId', 'baseUrl', 'liveKey', 'testKey']);
    expect(boot).toEqual({ accountId: expect.any(String), baseUrl: first.baseUrl, liveKey: expect.stringMatching(/^sk_live_/), testKey: expect.stringMatching(/^sk_test_/) });
    expect(boot.liveKey).toBe(first.bootstrap.liveKey);
    expect((await first.call('GET', '/v1/keys', { key: boot.liveKey })).status).toBe(200);
    expect((await first.call('GET', '/v1/keys', { key: boot.testKey })).status).toBe(200);
    // The agency can create sub-accounts (it is an agency).
    expect((await first.call('POST', '/v1/subaccounts', { body: { name: 'pre-restart' } })).status).toBe(201);

    const idem = { 'idempotency-key': 'survives-restart' };
    const original = await first.call('POST', '/v1/subaccounts', { body: { name: 'Restart Co' }, headers: idem });
    expect(original.status).toBe(201);
    const keyOriginal = await first.call('POST', '/v1/keys', { body: { name: 'restart key' }, headers: idem });
    expect(keyOriginal.status).toBe(201);

    await first.stop();
    first = undefined;

    second = await startTestService({ dataDir });
    expect(second.bootstrapCreated).toBe(false);
    expect(second.bootstrap).toEqual({ ...boot, baseUrl: second.baseUrl });
    const reread = JSON.parse(readFileSync(file, 'utf8'));
    expect(reread).toEqual({ ...boot, baseUrl: second.baseUrl });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await second.call('GET', '/v1/keys', { key: boot.liveKey })).status).toBe(200);

    const replay = await second.call('POST', '/v1/subaccounts', { body: { name: 'Restart Co' }, headers: idem });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(original.body);
    const subs = (await second.call('GET', '/v1/subaccounts?limit=100')).body.data.filter((s: { name: string }) => s.name === 'Restart Co');
    expect(subs).toHaveLength(1);

    const keyReplay = await second.call('POST', '/v1/keys', { body: { name: 'restart key' }, headers: idem });
    expect(keyReplay.status).toBe(201);
    expect(keyReplay.headers['idempotent-replayed']).toBe('true');
    expect(keyReplay.body.id).toBe(keyOriginal.body.id);
    expect((await second.call('GET', '/v1/keys?limit=100')).body.data.filter((k: { name: string }) => k.name === 'restart key')).toHaveLength(1);

    // The key pair is still the only one: the restart minted nothing.
    const names = (await second.call('GET', '/v1/keys?limit=100')).body.data.map((k: { name: string }) => k.name).sort();
    expect(names).toEqual(['bootstrap live key', 'bootstrap test key', 'restart key']);
  });
});
