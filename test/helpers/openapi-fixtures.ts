// One resource of each family made through the API in an account (the fuzz proof's real
// ids, the tenancy sweep's victims), the values an operation's path placeholders take from them, and
// a snapshot of everything the service stores (so a test can say "nothing changed").
import { expect } from 'vitest';
import type { TestService } from './service.js';
import { buy } from '../messages-fixtures.js';
import { approvedCampaign, mockBrand } from '../registration-fixtures.js';
import { freshDomain, verifiedDomain, emailBody } from './email-fixtures.js';

export const CALLER = '+14155550142';
/** The consumer who texts STOP to the fixture number (not the caller: the fixture's thread stays sendable). */
export const STOPPER = '+14155550149';
/** A loopback port nothing listens on (the discard port): deliveries fail fast and stay on this host. */
export const DEAD_HOOK = 'http://127.0.0.1:9/hook';

export interface Fixtures {
  /** The account the fixtures belong to. */
  accountId: string;
  number: string;
  phoneNumber: string;
  message: string;
  counterparty: string;
  /** contract §4: STOPPER's opt-out of `phoneNumber`. */
  optOut: string;
  call: string;
  voicemail: string;
  webhook: string;
  delivery: string;
  /** An event of the account's feed (the inbound message's `message.received`). */
  event: string;
  /** A sink (contract §10, extension): one more endpoint of the account, served by the service. */
  sink: string;
  device: string;
  blocked: string;
  brand: string;
  campaign: string;
  port: string;
  domain: string;
  email: string;
  suppressedAddress: string;
  key: string;
  /** A sub-account of this account (null for a sub-account: they do not nest, contract §3). */
  subaccount: string | null;
}

type As = { headers?: Record<string, string> };
/** What tells two fixture sets apart where a value is not an id: the texting counterparty, the bounced address. */
export type Distinct = { caller?: string; bounced?: string };

async function ok(svc: TestService, method: string, path: string, as: As, body?: unknown, status = [200, 201]): Promise<any> {
  const res = await svc.call(method, path, { headers: as.headers, body });
  expect(status, `${method} ${path}: ${res.text}`).toContain(res.status);
  return res.body;
}

let line = 3000;
/** A number the port registry calls portable. */
async function portable(svc: TestService, as: As): Promise<string> {
  for (;;) {
    const candidate = `+1415${'74'}${String(line++).padStart(5, '0')}`;
    const check = await ok(svc, 'POST', '/v1/ports/check', as, { phoneNumbers: [candidate] });
    if (check.data[0].portable) return candidate;
  }
}

/**
 * One resource of each family in the caller's account (`headers` may carry `Service-Subaccount`).
 * Uses the in-process job walk (`advanceJobs`) for the voicemail, never the sandbox clock API.
 */
export async function buildFixtures(svc: TestService, as: As = {}, distinct: Distinct = {}): Promise<Fixtures> {
  const caller = distinct.caller ?? CALLER;
  const bounced = distinct.bounced ?? 'bounce-me@example.com';
  const accountId = as.headers?.['service-subaccount'] ?? svc.bootstrap.accountId;
  const n = await buy(svc, { headers: as.headers, want: (c) => c.voice && c.sms });
  await ok(svc, 'PUT', `/v1/numbers/${n.id}/route`, as, { destinationType: 'pstn', destination: '+14155550199', voicemailEnabled: true });
  // cli.md "Calls as tests": the last run's coverage, kept per number.
  await ok(svc, 'PUT', `/v1/sandbox/numbers/${n.id}/call-coverage`, as, { source: 'saved', tests: 1, passed: 1, branches: [{ id: 'blocked', taken: false }] });

  const msg = await ok(svc, 'POST', '/v1/sandbox/inbound-messages', as, { from: caller, to: n.phoneNumber, body: 'fixture' });
  // contract §4: a consumer's STOP opts them out of the number (its reply's carrier course runs in the advance below).
  await ok(svc, 'POST', '/v1/sandbox/inbound-messages', as, { from: STOPPER, to: n.phoneNumber, body: 'STOP' });
  const optOuts = await ok(svc, 'GET', `/v1/opt-outs?phoneNumber=${encodeURIComponent(STOPPER)}`, as);
  expect(optOuts.data.map((o: any) => o.from), 'the STOP opted the consumer out').toEqual([n.phoneNumber]);

  const call = await ok(svc, 'POST', '/v1/sandbox/calls', as, { from: caller, to: n.phoneNumber });
  await svc.advanceJobs(120); // contract §6: unanswered after the ring timeout → voicemail, recorded to its end
  const ended = await ok(svc, 'GET', `/v1/calls/${call.id}`, as);
  expect(ended.voicemailId, 'the fixture call left a voicemail').toMatch(/^vm_/);

  const hook = await ok(svc, 'POST', '/v1/webhooks', as, { url: DEAD_HOOK });
  await ok(svc, 'POST', `/v1/webhooks/${hook.id}/test`, as);
  await svc.flushWebhooks();
  const deliveries = await ok(svc, 'GET', `/v1/webhooks/${hook.id}/deliveries`, as);
  expect(deliveries.data.length, 'the fixture webhook has deliveries').toBeGreaterThan(0);

  const received = await ok(svc, 'GET', '/v1/events?order=desc&types=message.received&limit=100', as);
  const event = received.data.find((e: any) => e.messageId === msg.id);
  expect(event, 'the fixture message has its event').toBeDefined();
  const sink = await ok(svc, 'POST', '/v1/sandbox/sinks', as, { events: ['lead.captured'] });

  const device = await ok(svc, 'POST', '/v1/webrtc/devices', as, { userId: 'fixture-user', label: 'desk' });
  const blocked = await ok(svc, 'POST', '/v1/blocked-numbers', as, { phoneNumber: '+14155550166', reason: 'fixture' });
  const brand = await mockBrand(svc, as);
  const campaign = await approvedCampaign(svc, as);
  const port = await ok(svc, 'POST', '/v1/ports', as, {
    phoneNumbers: [await portable(svc, as)],
    authorizedName: 'Dana Scully',
    accountNumber: 'ACCT-55821',
    pin: '1234',
    serviceAddress: { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' },
  });
  const domainName = freshDomain('tenancy');
  const domain = await verifiedDomain(svc, domainName, as.headers);
  const email = await ok(svc, 'POST', '/v1/emails', as, emailBody(`hello@${domainName}`, { to: bounced }));
  await svc.advanceJobs(0);
  await ok(svc, 'POST', '/v1/sandbox/email-events', as, { emailId: email.id, recipient: bounced, type: 'bounce' });
  const sup = await ok(svc, 'GET', '/v1/email-suppressions', as);
  expect(sup.data.map((s: any) => s.address), 'the bounce suppressed its address').toContain(bounced);

  const key = await ok(svc, 'POST', '/v1/keys', as, { name: 'fixture', mode: 'test' });
  const sub = as.headers?.['service-subaccount'] ? null : (await ok(svc, 'POST', '/v1/subaccounts', as, { name: `fixture ${line++}` })).id;

  return {
    accountId,
    number: n.id,
    phoneNumber: n.phoneNumber,
    message: msg.id,
    counterparty: caller,
    optOut: optOuts.data[0].id,
    call: call.id,
    voicemail: ended.voicemailId,
    webhook: hook.id,
    delivery: deliveries.data[0].id,
    event: event.id,
    sink: sink.id,
    device: device.id,
    blocked: blocked.id,
    brand: brand.id,
    campaign: campaign.id,
    port: port.id,
    domain: domain.id,
    email: email.id,
    suppressedAddress: bounced,
    key: key.id,
    subaccount: sub,
  };
}

// The family an `{id}` belongs to, by the path's first segment after `/v1/` (and `sandbox/`).
const ID_FAMILY: Record<string, keyof Fixtures> = {
  numbers: 'number',
  messages: 'message',
  calls: 'call',
  voicemails: 'voicemail',
  webhooks: 'webhook',
  events: 'event',
  sinks: 'sink',
  webrtc: 'device',
  'blocked-numbers': 'blocked',
  brands: 'brand',
  campaigns: 'campaign',
  ports: 'port',
  domains: 'domain',
  emails: 'email',
  keys: 'key',
  subaccounts: 'subaccount',
};

/**
 * The values of an operation's path placeholders taken from `fx`, or a string saying why there are
 * none (no fixture for that family: the caller fails naming the operation).
 */
export function pathValuesFor(template: string, fx: Fixtures): Record<string, string> | string {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  // The first segment after `/v1/` (and `sandbox/`), or of a path outside /v1 (a sink's `/sinks/{id}`).
  const segment = template.replace(/^\/(v1\/(sandbox\/)?)?/, '').split('/')[0]!;
  const out: Record<string, string> = {};
  for (const name of names) {
    let v: string | null | undefined;
    if (name === 'id') {
      const family = ID_FAMILY[segment];
      v = family ? (fx[family] as string | null) : undefined;
    } else if (name === 'deliveryId') v = fx.delivery;
    else if (name === 'counterparty') v = fx.counterparty;
    else if (name === 'address') v = fx.suppressedAddress;
    else if (name === 'brandId') v = fx.brand;
    if (v === undefined) return `no fixture for {${name}} in ${template}`;
    if (v === null) return `this account has no resource for {${name}} in ${template}`;
    out[name] = v;
  }
  return out;
}
