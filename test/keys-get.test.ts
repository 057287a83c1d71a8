// One API key read alone. GET /v1/keys/{id} answers the key's public fields (never the
// key, never its hash); a key of another account is not_found (spec: Authentication 6); and
// `svc keys get <id>` prints it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectOk, runSvc } from './helpers/cli.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});

afterAll(async () => {
  await svc?.stop();
});

const PUBLIC_FIELDS = ['createdAt', 'id', 'lastUsedAt', 'mode', 'name', 'prefix', 'revokedAt'];

async function newKey(headers?: Record<string, string>): Promise<{ id: string; key: string }> {
  const res = await svc.call('POST', '/v1/keys', { body: { name: 'read me', mode: 'test' }, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('GET /v1/keys/{id}', () => {
  it("answers the key's public fields, the same as its list row: no key, no hash", async () => {
    const created = await newKey();
    const res = await svc.call('GET', `/v1/keys/${created.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PUBLIC_FIELDS);
    expect(res.text).not.toContain(created.key);
    const row = (await svc.call('GET', '/v1/keys?limit=100')).body.data.find((k: { id: string }) => k.id === created.id);
    expect(res.body).toEqual(row);
    expect(res.body).toMatchObject({ name: 'read me', mode: 'test', revokedAt: null });
  });

  it('shows a revoked key with its revokedAt', async () => {
    const created = await newKey();
    expect((await svc.call('DELETE', `/v1/keys/${created.id}`)).status).toBe(204);
    expect((await svc.call('GET', `/v1/keys/${created.id}`)).body.revokedAt).toEqual(expect.any(String));
  });

  it("an unknown id, or another account's key, is not_found", async () => {
    expect((await svc.call('GET', '/v1/keys/key_doesnotexist000000')).body.error.code).toBe('not_found');
    const child = (await svc.call('POST', '/v1/subaccounts', { body: { name: 'keys-get child' } })).body as { id: string };
    const childKey = await newKey({ 'service-subaccount': child.id });
    // The sub-account reads its own key; the agency's own account does not see it, nor the reverse.
    expect((await svc.call('GET', `/v1/keys/${childKey.id}`, { headers: { 'service-subaccount': child.id } })).status).toBe(200);
    const fromParent = await svc.call('GET', `/v1/keys/${childKey.id}`);
    expect([fromParent.status, fromParent.body.error?.code]).toEqual([404, 'not_found']);
    const parentKey = await newKey();
    const fromChild = await svc.call('GET', `/v1/keys/${parentKey.id}`, { headers: { 'service-subaccount': child.id } });
    expect([fromChild.status, fromChild.body.error?.code]).toEqual([404, 'not_found']);
  });
});

describe('svc keys get', () => {
  it('prints the key (json: the API answer; a table: its fields), and exits 4 for an unknown id', async () => {
    const created = await newKey();
    const json = JSON.parse(expectOk(await runSvc(['keys', 'get', created.id, '-o', 'json'], { service: svc })).stdout);
    expect(json).toEqual((await svc.call('GET', `/v1/keys/${created.id}`)).body);
    const table = expectOk(await runSvc(['keys', 'get', created.id], { service: svc })).stdout;
    expect(table).toContain(created.id);
    expect(table).toContain('read me');
    expect(table).not.toContain(created.key);
    const missing = await runSvc(['keys', 'get', 'key_doesnotexist000000'], { service: svc });
    expect(missing.code).toBe(4);
  });
});
