import { afterEach, beforeEach, expect } from 'vitest';
import type { Page } from '../../src/api/schemas/page.js';
import type { AccountRecord } from '../../src/server/storage/accounts-repo.js';
import type { BrandRecord } from '../../src/server/storage/brands-repo.js';
import type { CallRecord } from '../../src/server/storage/calls-repo.js';
import type { CampaignRecord } from '../../src/server/storage/campaigns-repo.js';
import type { EmailRecord } from '../../src/server/storage/emails-repo.js';
import type { NumberRecord } from '../../src/server/storage/numbers-repo.js';
import type { MessageRecord } from '../../src/server/storage/messages-repo.js';
import type { PortRecord } from '../../src/server/storage/ports-repo.js';
import type { SendingDomainRecord } from '../../src/server/storage/sending-domains-repo.js';
import type { WalletRecord } from '../../src/server/storage/wallets-repo.js';
import type { WebhookEndpointRecord } from '../../src/server/storage/webhooks-repo.js';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';

// Records the contract suite writes, built only from the repositories' record types: every field
// set to a value a broken engine could lose (a large epoch-ms number, a boolean, a nested JSON
// value, a null beside a non-null), so a round trip that drops or retypes one fails.

/** A service-clock time past 2^32 ms (2023-11-14): an engine storing 32-bit integers loses it. */
export const T0 = 1_700_000_000_000;

let counter = 0;
/** A fresh id; unique across the whole run, so two stores never need to agree on names. */
export const uid = (prefix: string): string => `${prefix}_${(++counter).toString(36).padStart(6, '0')}`;

/**
 * One fresh store per test (an empty, migrated database from the engine), closed after it. Call
 * inside a `describe`; the returned function is the current test's store.
 */
export function useStore(engine: EngineUnderTest): () => Store {
  let current: { store: Store; close(): Promise<void> } | undefined;
  beforeEach(async () => {
    current = await engine.open();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('no store open: useStore() belongs inside a describe block');
    return current.store;
  };
}

/** Follows `nextCursor` to the end; checks every page's size and envelope on the way. */
export async function pageAll<T>(limit: number, fetch: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetch(cursor);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    out.push(...page.data);
    if (!page.hasMore) {
      expect(page.nextCursor).toBeNull();
      return out;
    }
    expect(page.data.length).toBe(limit);
    expect(typeof page.nextCursor).toBe('string');
    cursor = page.nextCursor!;
  }
  throw new Error('paging did not end after 1000 pages');
}

/**
 * Creation times for a keyset test: runs of equal timestamps (a frozen manual clock) and one row
 * older than the ones inserted before it, so insertion order and time order differ.
 */
export const KEYSET_TIMES = [T0, T0, T0 + 5, T0, T0 + 5, T0 - 10, T0 + 5, T0];

/** The order a newest-first keyset must give: time descending, later insertion first on a tie. */
export function newestFirst<T>(rows: readonly T[], createdAt: (r: T) => number): T[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => createdAt(b.row) - createdAt(a.row) || b.i - a.i)
    .map((x) => x.row);
}

export function account(over: Partial<AccountRecord> = {}): AccountRecord {
  return { id: uid('acc'), name: 'Acme Co', parentId: null, isAgency: false, status: 'active', mode: 'live', createdAt: T0, updatedAt: T0, ...over };
}

/** Inserts a root account (and returns it): nearly every row belongs to one. */
export async function seedAccount(store: Store, over: Partial<AccountRecord> = {}): Promise<AccountRecord> {
  const a = account(over);
  await store.write((tx) => tx.accounts.insert(a));
  return a;
}

export function brand(accountId: string, over: Partial<BrandRecord> = {}): BrandRecord {
  return {
    id: uid('brd'),
    accountId,
    legalName: 'Acme Holdings LLC',
    status: 'approved',
    mock: true,
    entityType: 'PRIVATE_PROFIT',
    fields: { displayName: 'Acme', ein: '12-3456789', website: 'https://acme.example', email: null },
    tcrBrandId: 'BXYZ123',
    identityStatus: 'VERIFIED',
    vettingProvider: 'AEGIS',
    vettingClass: 'STANDARD',
    vettingScore: 77,
    carrierSuspended: { tmobile: true, att: false },
    compliancePages: { optIn: '/p/a/opt-in', privacy: '/p/a/privacy', messagingTerms: '/p/a/terms' },
    pageConfig: { color: '#123456', nested: { list: [1, 'two', null] } },
    rejectionReason: null,
    submittedAt: T0 + 1234,
    mode: 'test',
    createdAt: T0,
    updatedAt: T0 + 1,
    ...over,
  };
}

export function campaign(accountId: string, brandId: string, over: Partial<CampaignRecord> = {}): CampaignRecord {
  return {
    id: uid('cmp'),
    accountId,
    brandId,
    name: 'Order updates',
    useCase: 'ACCOUNT_NOTIFICATION',
    status: 'approved',
    content: { description: 'Shipping notices', optInDetails: 'web form', sampleMessages: ['Your order shipped', 'Reply STOP'], embeddedLink: true, subUsecases: null },
    tcrCampaignId: 'CABC987',
    mock: false,
    cnpSharingStatus: 'accepted',
    mnoMetadata: { '10017': { tpm: 4500, qualify: true } },
    remediationAttempts: 2,
    lastRejectionReason: 'sample messages too short',
    mode: 'live',
    createdAt: T0,
    updatedAt: T0 + 2,
    ...over,
  };
}

export function numberRecord(accountId: string, over: Partial<NumberRecord> = {}): NumberRecord {
  return {
    id: uid('num'),
    accountId,
    phoneNumber: `+1415555${String(++counter % 10_000).padStart(4, '0')}`,
    type: 'local',
    capabilities: { sms: true, mms: false, voice: true },
    locality: 'San Francisco',
    region: 'CA',
    label: 'Front desk',
    status: 'live',
    campaignId: null,
    callerIdName: 'ACME',
    callerIdStatus: 'active',
    callerIdRequestedAt: T0 + 10,
    emergencyEnabled: true,
    emergencyAddress: { street: '1 Main St', street2: 'Suite 2', city: 'San Francisco', state: 'CA', zip: '94105' },
    emergencyStatus: 'pending',
    emergencyRequestedAt: T0 + 20,
    tfvStatus: 'not_applicable',
    tfvRejectionReason: null,
    tfvSubmission: { volume: '10,000', useCase: 'alerts', nested: { ok: true } },
    tfvSubmittedAt: T0 + 30,
    releasedAt: null,
    mode: 'test',
    createdAt: T0,
    updatedAt: T0 + 3,
    ...over,
  };
}

export function message(accountId: string, over: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: uid('msg'),
    accountId,
    numberId: null,
    direction: 'outbound',
    from: '+14155550100',
    to: '+14155550199',
    counterparty: '+14155550199',
    body: 'Hello ✓ — "quoted", emoji 🎉',
    status: 'queued',
    segments: 2,
    channel: 'mms',
    media: [{ url: 'https://cdn.example/a.png', contentType: 'image/png', filename: 'a.png' }],
    reason: null,
    test: true,
    providerMessageId: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function call(accountId: string, numberId: string, over: Partial<CallRecord> = {}): CallRecord {
  return {
    id: uid('call'),
    accountId,
    numberId,
    direction: 'inbound',
    from: '+14155550123',
    to: '+14155550100',
    status: 'completed',
    startedAt: T0,
    answeredAt: T0 + 2000,
    endedAt: T0 + 62_000,
    durationSeconds: 60,
    answeredBy: 'user_1',
    answeredDevice: 'dev_1',
    outcome: null,
    recordingId: null,
    voicemailId: null,
    mode: 'live',
    origin: 'http://127.0.0.1:4010',
    state: { step: 'ring', pending: ['a', 'b'], n: 3, flag: false },
    trace: [{ at: T0, step: 'route', detail: 'matched route r1' }],
    createdAt: T0,
    updatedAt: T0 + 62_000,
    ...over,
  };
}

export function port(accountId: string, over: Partial<PortRecord> = {}): PortRecord {
  return {
    id: uid('port'),
    accountId,
    status: 'draft',
    phoneNumbers: ['+14155551000', '+14155551001'],
    authorizedName: 'Jane Doe',
    accountNumber: 'ACCT-99',
    hasPin: true,
    serviceAddress: { street: '2 Side St', city: 'Oakland', state: 'CA', zip: '94607' },
    focDate: null,
    rejectionReason: null,
    mode: 'live',
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function sendingDomain(accountId: string, over: Partial<SendingDomainRecord> = {}): SendingDomainRecord {
  return {
    id: uid('dom'),
    accountId,
    domain: `${uid('d')}.example.com`,
    status: 'pending',
    records: [
      { type: 'TXT', name: '_svc.example.com', value: 'svc-verify=abc', purpose: 'verification', status: 'pending' },
      { type: 'CNAME', name: 'send.example.com', value: 'mail.svc.test', purpose: 'return_path', status: 'valid' },
    ],
    everVerified: false,
    mode: 'live',
    createdAt: T0,
    verifiedAt: null,
    lastCheckedAt: T0 + 5,
    updatedAt: T0 + 5,
    ...over,
  };
}

export function email(accountId: string, domainId: string, over: Partial<EmailRecord> = {}): EmailRecord {
  return {
    id: uid('eml'),
    accountId,
    domainId,
    status: 'queued',
    mode: 'live',
    from: 'Acme <hello@example.com>',
    subject: 'Welcome',
    html: '<p>Hi</p>',
    text: null,
    tags: ['welcome', 'onboarding'],
    metadata: { userId: '42', plan: 'pro' },
    externalRef: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function wallet(accountId: string, over: Partial<WalletRecord> = {}): WalletRecord {
  return {
    accountId,
    balanceCents: 2000,
    autoRechargeEnabled: true,
    thresholdCents: 500,
    rechargeAmountCents: 2000,
    lowBalanceArmed: false,
    spendLimitCents: 10_000,
    cardToken: 'tok_visa',
    cardLast4: '4242',
    plan: 'starter',
    subscriptionStatus: 'past_due',
    currentPeriodEnd: T0 + 30 * 86_400_000,
    spendMonth: null,
    spendMonthCents: 0,
    updatedAt: T0,
    ...over,
  };
}

export function endpoint(accountId: string, over: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord {
  return {
    id: uid('we'),
    accountId,
    url: 'http://127.0.0.1:9/hook',
    events: ['message.sent', 'call.*'],
    description: null,
    secret: 'whsec_abc',
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    consecutiveFailures: 0,
    failingSince: null,
    lastSuccessAt: null,
    mode: 'test',
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}
