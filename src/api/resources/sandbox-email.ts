import type { ApiClient } from '../client/client.js';
import type { Email, SandboxDnsEntry } from '../schemas/email.js';
import type { DNS_RECORD_TYPES, SandboxEmailEventType } from '../values/email.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// contract §8 and §9: the outside world for email (local service only) — the DNS answers a domain's
// checks read, a mail server's reports, and the mail sandbox where delivered messages land.
const mailboxParser = responseParser('MailboxSchema');
const dnsEntryParser = responseParser('SandboxDnsEntrySchema');
const emailParser = responseParser('EmailSchema');

export const sandboxDnsEndpoints = {
  put: { method: 'PUT', path: '/v1/sandbox/dns/{name}' },
  delete: { method: 'DELETE', path: '/v1/sandbox/dns/{name}' },
} as const satisfies Record<string, EndpointRef>;

export const sandboxEmailEndpoints = {
  report: { method: 'POST', path: '/v1/sandbox/email-events' },
} as const satisfies Record<string, EndpointRef>;

export interface SandboxDnsRecord {
  type: (typeof DNS_RECORD_TYPES)[number];
  value: string;
}

/** PUT /v1/sandbox/dns/{name}: the name's answers; before `visibleAfterSecs` it answers as still propagating. */
export async function putSandboxDns(client: ApiClient, name: string, records: SandboxDnsRecord[], visibleAfterSecs?: number): Promise<SandboxDnsEntry> {
  const body = { records, ...(visibleAfterSecs !== undefined ? { visibleAfterSecs } : {}) };
  return (await client.request({ method: 'PUT', path: pathOf(sandboxDnsEndpoints.put, { name }), body, schema: dnsEntryParser })).data;
}

/** DELETE /v1/sandbox/dns/{name}: the name answers nothing (a record there is missing). */
export async function deleteSandboxDns(client: ApiClient, name: string): Promise<void> {
  await client.request({ method: 'DELETE', path: pathOf(sandboxDnsEndpoints.delete, { name }) });
}

/** POST /v1/sandbox/email-events `{emailId, recipient, type}`: a mail server's report, an open, a click, a complaint; the email after it. */
export async function reportEmailEvent(client: ApiClient, body: { emailId: string; recipient: string; type: SandboxEmailEventType }): Promise<Email> {
  return (await client.request({ method: 'POST', path: sandboxEmailEndpoints.report.path, body, schema: emailParser })).data;
}

export interface MailboxRequest {
  to?: string;
  /** A cursor from an earlier answer: only messages delivered after it. */
  after?: string;
  /** Seconds the service holds a request that finds nothing (the events feed's `wait`). */
  wait?: number;
}

/** The mail sandbox's inbox (contract §8, extension). */
export const MAILBOX_PATH = '/v1/sandbox/mailbox';

/** GET /v1/sandbox/mailbox: delivered messages, oldest first, and the cursor after the last. */
export async function readMailbox(client: ApiClient, q: MailboxRequest, opts: { signal?: AbortSignal; timeoutMs?: number } = {}) {
  return (await client.request({ ...opts, method: 'GET', path: MAILBOX_PATH, query: { to: q.to, after: q.after, wait: q.wait }, schema: mailboxParser, maxAttempts: 1 })).data;
}
