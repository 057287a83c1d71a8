import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, buy, expectError } from './messages-fixtures.js';
import { BLOCK_REASON_MAX, BLOCK_SUGGESTION } from '../src/api/values/calls.js';
import { PSTN } from './calls-fixtures.js';

// spec: Blocked number; contract §6 (Blocked numbers, the auto-suggestion rule) — over HTTP on loopback.

let svc: TestService;
let asChild: Record<string, string>;
let childId: string;
beforeAll(async () => {
  svc = await startTestService();
  const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'blocklist child' } });
  expect(sub.status).toBe(201);
  childId = sub.body.id;
  asChild = { 'service-subaccount': childId };
});
afterAll(async () => {
  await svc?.stop();
});

const KEYS = ['autoSuggested', 'blockedCallCount', 'createdAt', 'id', 'lastBlockedAt', 'phoneNumber', 'reason', 'tenantId', 'updatedAt'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const create = (body: unknown, headers?: Record<string, string>) => svc.call('POST', '/v1/blocked-numbers', { body, headers });
const list = async (query = '', headers?: Record<string, string>) => {
  const res = await svc.call('GET', `/v1/blocked-numbers${query}`, { headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** The reason a suggestion carries, as the list shows it. */
const SUGGESTION_REASON = `auto-suggested: ${BLOCK_SUGGESTION.calls} short or unanswered calls in ${BLOCK_SUGGESTION.windowSecs / 3600} hour`;

/** A voice number of the acting account whose route rings a PSTN number that never answers. */
async function unansweredNumber(headers: Record<string, string>): Promise<string> {
  const n = await buy(svc, { headers, want: (c) => c.voice });
  const route = await svc.call('PUT', `/v1/numbers/${n.id}/route`, { headers, body: { destinationType: 'pstn', destination: PSTN } });
  expect(route.status, route.text).toBe(200);
  return n.phoneNumber;
}

/** `n` inbound calls from `from` to `to` in the sandbox, each missed at the 25 s ring timeout (contract §6). */
async function missedCalls(headers: Record<string, string>, to: string, from: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const placed = await svc.call('POST', '/v1/sandbox/calls', { headers, body: { from, to, scenario: {} } });
    expect(placed.status, placed.text).toBe(201);
    await advance(svc, 25);
    expect((await svc.call('GET', `/v1/calls/${placed.body.id}`, { headers })).body.status).toBe('missed');
  }
}

describe('POST, GET, PATCH, DELETE /v1/blocked-numbers', () => {
  it('blocks a number (201), reads it back, edits and removes it', async () => {
    const created = await create({ phoneNumber: '+14155550101', reason: 'robocalls' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(KEYS);
    expect(created.body).toMatchObject({ phoneNumber: '+14155550101', reason: 'robocalls', autoSuggested: false, blockedCallCount: 0, lastBlockedAt: null });
    expect(created.body.id).toMatch(UUID);
    expect(created.body.tenantId).toMatch(UUID);
    const id = created.body.id;

    const got = await svc.call('GET', `/v1/blocked-numbers/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const page = await list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.map((e: any) => e.id)).toContain(id);

    const patched = await svc.call('PATCH', `/v1/blocked-numbers/${id}`, { body: { reason: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, reason: null, autoSuggested: false });

    const del = await svc.call('DELETE', `/v1/blocked-numbers/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await svc.call('GET', `/v1/blocked-numbers/${id}`), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/blocked-numbers/${id}`), 404, 'not_found');
    // Removed, the number can be blocked again.
    expect((await create({ phoneNumber: '+14155550101' })).status).toBe(201);
  });

  it('409 when the number is already blocked', async () => {
    const first = await create({ phoneNumber: '+14155550102' });
    expect(first.status).toBe(201);
    expectError(await create({ phoneNumber: '+14155550102', reason: 'again' }), 409, 'conflict');
    expect((await svc.call('GET', `/v1/blocked-numbers/${first.body.id}`)).body.reason).toBeNull();
  });

  it('an idempotent replay answers the same status and entry', async () => {
    const headers = { 'idempotency-key': 'block-once-1' };
    const first = await create({ phoneNumber: '+14155550103' }, headers);
    expect(first.status).toBe(201);
    const replay = await create({ phoneNumber: '+14155550103' }, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('validates bodies, params and queries with the error envelope', async () => {
    const cases: Array<[unknown, Array<string | number>]> = [
      [{}, ['body', 'phoneNumber']],
      [{ phoneNumber: '4155550100' }, ['body', 'phoneNumber']],
      [{ phoneNumber: '+14155550100', reason: 'x'.repeat(BLOCK_REASON_MAX + 1) }, ['body', 'reason']],
      [{ phoneNumber: '+14155550100', autoSuggested: true }, ['body', 'autoSuggested']],
    ];
    for (const [body, path] of cases) expectError(await create(body), 400, 'validation_error', path);
    expect((await create({ phoneNumber: '+14155550104', reason: 'x'.repeat(BLOCK_REASON_MAX) })).status).toBe(201);

    const id = (await list()).data[0].id;
    expectError(await svc.call('PATCH', `/v1/blocked-numbers/${id}`, { body: {} }), 400, 'validation_error');
    expectError(await svc.call('PATCH', `/v1/blocked-numbers/${id}`, { body: { autoSuggested: true } }), 400, 'validation_error', ['body', 'autoSuggested']);
    expectError(await svc.call('PATCH', `/v1/blocked-numbers/${id}`, { body: { phoneNumber: '+14155550999' } }), 400, 'validation_error', ['body', 'phoneNumber']);
    expectError(await svc.call('GET', '/v1/blocked-numbers?autoSuggested=maybe'), 400, 'validation_error', ['query', 'autoSuggested']);
    expectError(await svc.call('GET', '/v1/blocked-numbers?limit=0'), 400, 'validation_error', ['query', 'limit']);
    expectError(await svc.call('GET', '/v1/blocked-numbers?cursor=%21%21'), 400, 'validation_error', ['query', 'cursor']);
    expectError(await svc.call('GET', `/v1/blocked-numbers/${'x'.repeat(201)}`), 400, 'validation_error', ['params', 'id']);
    expectError(await svc.call('GET', '/v1/blocked-numbers/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectError(await svc.call('GET', '/v1/blocked-numbers', { key: null }), 401, 'unauthorized');
  });

  it("is scoped to the acting account: another account's entry is not found", async () => {
    const mine = await create({ phoneNumber: '+14155550105' });
    const theirs = await create({ phoneNumber: '+14155550105', reason: 'child' }, asChild);
    expect(theirs.status).toBe(201);
    expect(theirs.body.tenantId).toBe(childId);
    expect(theirs.body.id).not.toBe(mine.body.id);
    const childList = await list('', asChild);
    expect(childList.data.map((e: any) => e.id)).toEqual([theirs.body.id]);
    expect((await list()).data.map((e: any) => e.id)).not.toContain(theirs.body.id);
    expectError(await svc.call('GET', `/v1/blocked-numbers/${theirs.body.id}`), 404, 'not_found');
    expectError(await svc.call('PATCH', `/v1/blocked-numbers/${theirs.body.id}`, { body: { reason: 'mine now' } }), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/blocked-numbers/${theirs.body.id}`), 404, 'not_found');
    expect((await svc.call('GET', `/v1/blocked-numbers/${theirs.body.id}`, { headers: asChild })).body.reason).toBe('child');
  });

  it('pages newest first with a keyset cursor', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'blocklist pages' } });
    const headers = { 'service-subaccount': sub.body.id };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ phoneNumber: `+1415555020${i}` }, headers)).body.id);
    const first = await list('?limit=2', headers);
    expect(first).toMatchObject({ hasMore: true });
    expect(first.data.map((e: any) => e.id)).toEqual([ids[4], ids[3]]);
    const second = await list(`?limit=2&cursor=${first.nextCursor}`, headers);
    expect(second.data.map((e: any) => e.id)).toEqual([ids[2], ids[1]]);
    const third = await list(`?limit=2&cursor=${second.nextCursor}`, headers);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
    expect(third.data.map((e: any) => e.id)).toEqual([ids[0]]);
    const bare = await svc.call('GET', '/v1/blocked-numbers?format=array', { headers });
    expect(bare.body).toHaveLength(5);
  });
});

describe('suggestions (contract §6)', () => {
  it('five missed calls within the hour suggest the caller; POST is a 409, PATCH confirms', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'blocklist suggestions' } });
    const headers = { 'service-subaccount': sub.body.id };
    const to = await unansweredNumber(headers);
    await missedCalls(headers, to, '+14155550301', BLOCK_SUGGESTION.calls);
    await missedCalls(headers, to, '+14155550302', BLOCK_SUGGESTION.calls);
    await missedCalls(headers, to, '+14155550303', BLOCK_SUGGESTION.calls - 1);
    const confirmed = await create({ phoneNumber: '+14155550304' }, headers);

    const suggestions = await list('?autoSuggested=true', headers);
    expect(suggestions.data.length).toBe(2);
    expect(suggestions.data.map((e: any) => [e.phoneNumber, e.autoSuggested, e.reason]).sort()).toEqual([
      ['+14155550301', true, SUGGESTION_REASON],
      ['+14155550302', true, SUGGESTION_REASON],
    ]);
    expect((await list('?autoSuggested=false', headers)).data.map((e: any) => e.id)).toEqual([confirmed.body.id]);

    // A suggested number is present (contract §6: 409), and the message names the PATCH that confirms it.
    const s1 = suggestions.data.find((e: any) => e.phoneNumber === '+14155550301');
    const byPost = await create({ phoneNumber: '+14155550301', reason: 'confirmed' }, headers);
    expectError(byPost, 409, 'conflict');
    expect(byPost.body.error.message).toContain(`PATCH /v1/blocked-numbers/${s1.id}`);

    const s2 = suggestions.data.find((e: any) => e.phoneNumber === '+14155550302');
    const byPatch = await svc.call('PATCH', `/v1/blocked-numbers/${s2.id}`, { body: { autoSuggested: false }, headers });
    expect(byPatch.status).toBe(200);
    expect(byPatch.body).toMatchObject({ id: s2.id, autoSuggested: false, reason: SUGGESTION_REASON });
    // Only the suggestion the POST could not confirm is left.
    expect((await list('?autoSuggested=true', headers)).data.map((e: any) => e.id)).toEqual([s1.id]);
  });
});
