import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectError } from './messages-fixtures.js';
import { addSendingDomain, emailBody, freshDomain, newAccount } from './helpers/email-fixtures.js';
import type { SuppressionReason } from '../src/api/values/email.js';
import { addSuppression } from './helpers/inspect.js';

// contract §8: GET /v1/email-suppressions (page, ?reason=), DELETE /v1/email-suppressions/{address}
// (204; not suppressed → 404; a complaint → 409). Suppressions are put in place with no email on
// record (inspect.ts addSuppression), at chosen addresses and reasons: on the service they come from
// the mail server's bounces, complaints and unsubscribes (test/email-send.test.ts).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

async function accountWith(entries: Array<[string, SuppressionReason]>) {
  const acct = await newAccount(svc, 'Suppressions');
  for (const [address, reason] of entries) {
    await addSuppression(svc, acct.id, address, reason);
    await svc.advanceJobs(1);
  }
  return acct;
}
const list = (headers: Record<string, string>, query = '') => svc.call('GET', `/v1/email-suppressions${query}`, { headers });
const remove = (headers: Record<string, string>, address: string) =>
  svc.call('DELETE', `/v1/email-suppressions/${encodeURIComponent(address)}`, { headers });

describe('GET /v1/email-suppressions', () => {
  it('lists the account’s suppressions newest first, keyset-paged, narrowed by reason', async () => {
    const acct = await accountWith([
      ['a@example.com', 'hard_bounce'],
      ['b@example.com', 'complaint'],
      ['c@example.com', 'unsubscribe'],
    ]);
    const all = await list(acct.headers);
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    expect(all.body.data).toEqual([
      { address: 'c@example.com', reason: 'unsubscribe', emailId: null, createdAt: expect.any(String) },
      { address: 'b@example.com', reason: 'complaint', emailId: null, createdAt: expect.any(String) },
      { address: 'a@example.com', reason: 'hard_bounce', emailId: null, createdAt: expect.any(String) },
    ]);
    const first = await list(acct.headers, '?limit=2');
    expect(first.body.data.map((s: any) => s.address)).toEqual(['c@example.com', 'b@example.com']);
    expect(first.body.hasMore).toBe(true);
    const rest = await list(acct.headers, `?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(rest.body.data.map((s: any) => s.address)).toEqual(['a@example.com']);
    const complaints = await list(acct.headers, '?reason=complaint');
    expect(complaints.body.data.map((s: any) => s.address)).toEqual(['b@example.com']);
    expectError(await list(acct.headers, '?reason=spam'), 400, 'validation_error', ['query', 'reason']);
    // Another account sees none of them.
    const other = await newAccount(svc);
    expect((await list(other.headers)).body.data).toEqual([]);
  });
});

describe('DELETE /v1/email-suppressions/{address}', () => {
  it('removes a bounce or unsubscribe (URL-encoded, any case) with 204, after which the address is sent to again', async () => {
    const acct = await accountWith([
      ['jane+news@example.com', 'unsubscribe'],
      ['bob@example.com', 'hard_bounce'],
    ]);
    const d = freshDomain('supp');
    await addSendingDomain(svc, d, 'verified', acct.id);
    const before = await svc.call('POST', '/v1/emails', { body: emailBody(`hi@${d}`, { to: 'Jane+News@Example.com' }), headers: acct.headers });
    expect(before.status).toBe(201);
    expect(before.body.recipients[0].status).toBe('suppressed');

    const res = await remove(acct.headers, 'Jane+News@Example.com');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await list(acct.headers)).body.data.map((s: any) => s.address)).toEqual(['bob@example.com']);
    const after = await svc.call('POST', '/v1/emails', { body: emailBody(`hi@${d}`, { to: 'Jane+News@Example.com' }), headers: acct.headers });
    expect(after.body.recipients[0].status).toBe('queued');

    expect((await remove(acct.headers, 'bob@example.com')).status).toBe(204);
    expect((await list(acct.headers)).body.data).toEqual([]);
  });

  it('answers 404 for an address that is not suppressed, or suppressed on another account', async () => {
    const acct = await accountWith([['mine@example.com', 'hard_bounce']]);
    expectError(await remove(acct.headers, 'never@example.com'), 404, 'not_found');
    const other = await newAccount(svc);
    expectError(await remove(other.headers, 'mine@example.com'), 404, 'not_found');
    expect((await list(acct.headers)).body.data.map((s: any) => s.address)).toEqual(['mine@example.com']);
  });

  it('refuses to remove a complaint with 409 saying complaints cannot be removed, and keeps it', async () => {
    const acct = await accountWith([['angry@example.com', 'complaint']]);
    const res = await remove(acct.headers, 'ANGRY@example.com');
    expectError(res, 409, 'conflict');
    expect(res.body.error.message).toContain('cannot be removed');
    expect((await list(acct.headers)).body.data).toEqual([expect.objectContaining({ address: 'angry@example.com', reason: 'complaint' })]);
  });
});
