import { expect } from 'vitest';
import type { TestService } from './service.js';

// Reads through the public API that end-to-end tests share: every page of a list, and the events
// feed (spec: Events feed). What no public surface shows is read by ./inspect.ts instead.

type Caller = Pick<TestService, 'call'>;
interface As {
  key?: string;
  headers?: Record<string, string>;
}

/** How to act for `accountId`: the service's own account as itself, a sub-account of it through `Service-Subaccount`. */
export function asAccount(svc: Pick<TestService, 'bootstrap'>, accountId: string): As {
  return accountId === svc.bootstrap.accountId ? {} : { headers: { 'service-subaccount': accountId } };
}

/** Every row of a list endpoint (`path` may carry filters), following `nextCursor`. */
export async function listAll(svc: Caller, path: string, as: As = {}): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await svc.call('GET', `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, as);
    expect(res.status, res.text).toBe(200);
    rows.push(...res.body.data);
    if (!res.body.hasMore) return rows;
    cursor = res.body.nextCursor;
  }
}

/** The feed's head: a cursor after every event so far (pass it to `eventsAfter`). */
export async function feedHead(svc: Caller, as: As = {}): Promise<string> {
  const res = await svc.call('GET', '/v1/events?after=now', as);
  expect(res.status, res.text).toBe(200);
  return res.body.cursor;
}

/** The account's events, oldest first: after `after` (default: from the start), of `types` (comma-separated, `family.*` too; default all). */
export async function feedEvents(svc: Caller, o: As & { types?: string; after?: string } = {}): Promise<any[]> {
  const out: any[] = [];
  let after = o.after;
  for (;;) {
    const q = new URLSearchParams({ limit: '100', ...(o.types ? { types: o.types } : {}), ...(after ? { after } : {}) });
    const res = await svc.call('GET', `/v1/events?${q}`, { key: o.key, headers: o.headers });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    if (!res.body.hasMore) return out;
    after = res.body.cursor;
  }
}

/** The account's suppression of `address` (GET /v1/email-suppressions), or undefined. */
export async function suppressionOf(svc: Caller, address: string, as: As = {}): Promise<any | undefined> {
  return (await listAll(svc, '/v1/email-suppressions', as)).find((s) => s.address === address.toLowerCase());
}

/** What the mail sandbox holds of one email for one address (GET /v1/sandbox/mailbox). */
export async function mailboxFor(svc: Caller, to: string, emailId: string, as: As = {}): Promise<any[]> {
  const res = await svc.call('GET', `/v1/sandbox/mailbox?to=${encodeURIComponent(to)}&limit=100`, as);
  expect(res.status, res.text).toBe(200);
  return res.body.data.filter((m: any) => m.emailId === emailId);
}
