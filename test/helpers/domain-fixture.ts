// The one place domain unit tests build the service's dependencies: an in-memory SQLite database and
// a manual clock, wired by the service's composition root (which registers the durable jobs), and a
// few seeded accounts. Tests call domain functions directly, `(deps, actor, …)` (no HTTP, no
// network). When the composition root changes, only this module should need to follow.
//
// It lives under test/ (not src/server/domain/) because it reaches the composition root, which the
// domain layer may not import, and so that it never ships in dist.

import { afterEach, beforeEach, expect } from 'vitest';
import { ManualClock } from '../../src/server/clock.js';
import { composeService } from '../../src/server/compose.js';
import type { ServiceDeps } from '../../src/server/deps.js';
import { openDatabase, type Db } from '../../src/server/storage/sqlite/database.js';
import { SqliteStore } from '../../src/server/storage/sqlite/store.js';
import { createAgencyAccount, createSubaccount } from '../../src/server/domain/accounts.js';
import type { Actor } from '../../src/server/domain/actor.js';
import { assignNumber, buyNumber, searchNumbers } from '../../src/server/domain/numbers.js';
import { createBrand, sandboxBrandDecision } from '../../src/server/domain/registration/brands.js';
import { createCampaign, sandboxCampaignDecision } from '../../src/server/domain/registration/campaigns.js';
import { register } from '../../src/server/domain/registration/registrations.js';
import { GOOD_BRAND, GOOD_CAMPAIGN } from '../registration-fixtures.js';
import { ServiceError } from '../../src/server/errors.js';
import type { AccountRecord } from '../../src/server/storage/accounts-repo.js';
import type { CampaignRecord, CampaignStatus } from '../../src/server/storage/campaigns-repo.js';
import type { NumberRecord } from '../../src/server/storage/numbers-repo.js';
import type { EventRecord } from '../../src/server/storage/events-repo.js';
import type { DeliveryRecord } from '../../src/server/storage/webhook-deliveries-repo.js';
import { SearchNumbersBody } from '../../src/api/schemas/numbers.js';
import { chargesFor, type ChargeView } from './inspect.js';

/** 2025-01-15T12:00:00Z: a fixed start, on a 5-minute tick boundary, mid-month. */
export const FIXTURE_START_MS = Date.UTC(2025, 0, 15, 12, 0, 0);

export interface Caps {
  sms: boolean;
  mms: boolean;
  voice: boolean;
}

export interface BuyOptions {
  /** Whose number (default: the agency). */
  account?: AccountRecord;
  /** The key's mode for the purchase (default live: the first month is charged). */
  mode?: 'live' | 'test';
  type?: 'local' | 'tollfree';
  areaCode?: string;
  /** The first inventory number whose capabilities pass (default: sms + mms + voice). */
  want?: (caps: Caps) => boolean;
}

const fullCaps = (c: Caps) => c.sms && c.mms && c.voice;

export interface DomainFixture {
  deps: ServiceDeps;
  /** The SQLite connection under the store: for a test that must put a row in a state no domain call makes. */
  db: Db;
  clock: ManualClock;
  /** The agency account (what bootstrap creates on a first start). */
  agency: AccountRecord;
  /** A sub-account of the agency. */
  sub: AccountRecord;
  /** An unrelated account of another agency: its resources are another account's. */
  stranger: AccountRecord;
  /** Errors the scheduler logged (a job that threw); tests expect none. */
  jobErrors: Array<{ obj: object; msg: string }>;
  actor(mode?: 'live' | 'test', account?: AccountRecord): Actor;
  /** Searches the inventory and buys the first number that fits. */
  buyNumber(o?: BuyOptions): Promise<NumberRecord>;
  /** A 10DLC campaign row inserted through the repo (registration is not a domain of its own yet). */
  seedCampaign(account?: AccountRecord, status?: CampaignStatus): Promise<CampaignRecord>;
  /** A local number bought and attached to an approved campaign: it can send with a live key. */
  liveNumber(o?: BuyOptions): Promise<NumberRecord>;
  /** Moves the service clock forward, running every job that falls due, in time order. */
  advance(ms: number): Promise<void>;
  /** The account's stored events, oldest first (optionally one type). */
  events(account: AccountRecord, type?: string): Promise<EventRecord[]>;
  charges(account: AccountRecord): Promise<ChargeView[]>;
  /** Emits an event in its own transaction, as a domain change would (the webhook outbox writes its deliveries). */
  emit(account: AccountRecord, type: string, fields?: Record<string, unknown>): Promise<EventRecord>;
  /** An endpoint's deliveries, oldest first, whatever their age. */
  deliveriesFor(endpointId: string): Promise<DeliveryRecord[]>;
  /** Waits for the writes under way, then closes the database. */
  close(): Promise<void>;
}

export async function createDomainFixture(): Promise<DomainFixture> {
  const db = openDatabase(':memory:');
  const clock = new ManualClock(FIXTURE_START_MS);
  const jobErrors: DomainFixture['jobErrors'] = [];
  const log = { error: (obj: object, msg: string) => void jobErrors.push({ obj, msg }) };
  // Tests refuse an outside call, or a top-level write, from inside an open transaction.
  const deps = await composeService(new SqliteStore(db, { guardOutsideCalls: true }), clock, log, {
    webhooks: {
      // The worker is never started here, so it sends nothing; should that change, these make sure
      // no attempt can leave the process: no name resolves and every address is refused.
      resolver: { lookup: async (host: string) => Promise.reject(Object.assign(new Error(`no network in domain tests (${host})`), { code: 'ENOTFOUND' })) },
      destinationGuard: () => false,
    },
  });

  const agency = await deps.uow.write((tx) => createAgencyAccount(tx, 'Fixture agency'));
  const sub = await deps.uow.write((tx) => createSubaccount(tx, { account: agency, mode: 'live' }, 'Fixture client'));
  const stranger = await deps.uow.write((tx) => createAgencyAccount(tx, 'Another agency'));

  const actor = (mode: 'live' | 'test' = 'live', account: AccountRecord = agency): Actor => ({ account, mode });

  // A campaign in `status`, made through the registration domain with a test key (nothing charged):
  // a mock brand's campaign is approved at once; a real brand approved by the sandbox decision gives a
  // submitted campaign, which the sandbox rejects; a combined registration leaves a draft.
  const seedCampaign = async (account: AccountRecord = agency, status: CampaignStatus = 'approved'): Promise<CampaignRecord> => {
    const a = actor('test', account);
    const brandBody = { ...GOOD_BRAND, mock: status === 'approved' };
    if (status === 'draft') return (await deps.uow.write((tx) => register(tx, a, { brand: { ...GOOD_BRAND }, campaign: { ...GOOD_CAMPAIGN, sampleMessages: [...GOOD_CAMPAIGN.sampleMessages] } }))).campaign;
    const brand = await deps.uow.write((tx) => createBrand(tx, a, brandBody));
    if (!brand.mock) await deps.uow.write((tx) => sandboxBrandDecision(tx, a, brand.id, { decision: 'approved' }));
    const c = await deps.uow.write((tx) => createCampaign(tx, a, { ...GOOD_CAMPAIGN, sampleMessages: [...GOOD_CAMPAIGN.sampleMessages], brandId: brand.id }));
    if (status === 'rejected') return await deps.uow.write((tx) => sandboxCampaignDecision(tx, a, c.id, { decision: 'rejected' }));
    // What the registry's review job does 1 h after a submission (the job itself needs an async clock advance).
    if (status === 'dca_review') await deps.uow.write(async (tx) => await tx.campaigns.setStatus(c.id, 'dca_review', clock.nowMs()));
    const stored = (await deps.uow.read(async (tx) => await tx.campaigns.get(account.id, c.id)))!;
    expect(stored.status).toBe(status);
    return stored;
  };

  const buy = async (o: BuyOptions = {}): Promise<NumberRecord> => {
    const query = SearchNumbersBody.parse(o.type === 'tollfree' ? { type: 'tollfree', limit: 100 } : { areaCode: o.areaCode ?? '415', limit: 100 });
    const pick = (await deps.uow.read(async (tx) => searchNumbers(tx, query))).find((n) => (o.want ?? fullCaps)(n.capabilities));
    if (!pick) throw new Error('fixture: no inventory number with the wanted capabilities');
    return await deps.uow.write((tx) => buyNumber(tx, actor(o.mode ?? 'live', o.account ?? agency), pick.phoneNumber));
  };

  const liveNumber = async (o: BuyOptions = {}): Promise<NumberRecord> => {
    const n = await buy(o);
    const campaign = await seedCampaign(o.account ?? agency);
    return await deps.uow.write((tx) => assignNumber(tx, actor(o.mode ?? 'live', o.account ?? agency), n.id, campaign.id));
  };

  return {
    deps,
    db,
    clock,
    agency,
    sub,
    stranger,
    jobErrors,
    actor,
    buyNumber: buy,
    seedCampaign,
    liveNumber,
    advance: async (ms) => void (await deps.scheduler.advance(ms / 1000)),
    events: async (account, type) =>
      (await deps.uow.read(async (tx) => await tx.eventsRepo.feedPage(account.id, { order: 'asc', limit: 10_000, exact: type ? [type] : [], prefixes: [] }))).rows,
    charges: async (account) => await chargesFor({ deps }, account.id),
    emit: (account, type, fields = {}) => deps.uow.write(async (tx) => await tx.events.emit(account.id, type, fields)),
    deliveriesFor: async (endpointId) => (await deps.uow.read(async (tx) => await tx.webhookDeliveries.list(endpointId, { since: 0, limit: 200 }))).data.reverse(),
    close: () => deps.store.close(),
  };
}

/**
 * The ServiceError `fn` throws (or its promise rejects with); fails loudly if it succeeds or fails
 * with anything else. Await it when `fn` is async.
 */
export function serviceErrorOf(fn: () => Promise<unknown>): Promise<ServiceError>;
export function serviceErrorOf(fn: () => unknown): ServiceError;
export function serviceErrorOf(fn: () => unknown): ServiceError | Promise<ServiceError> {
  const caught = (err: unknown): ServiceError => {
    if (err instanceof ServiceError) return err;
    throw err;
  };
  const succeeded = (): never => {
    throw new Error('expected a ServiceError, but the call succeeded');
  };
  let result: unknown;
  try {
    result = fn();
  } catch (err) {
    return caught(err);
  }
  if (result instanceof Promise) return result.then(succeeded, caught);
  return succeeded();
}

/** The paths named by a ServiceError's details (an empty list when it has none). */
export const detailPaths = (err: ServiceError): unknown[] =>
  Array.isArray(err.details) ? (err.details as Array<{ path?: unknown }>).map((d) => d.path) : [];

/**
 * A fresh fixture for every test of the file, closed after it; each test also asserts that no
 * background job failed. `use` receives the fixture (tests keep it in a variable of their own).
 */
export function freshFixtureEachTest(use: (fx: DomainFixture) => void): void {
  let current: DomainFixture | undefined;
  beforeEach(async () => {
    current = await createDomainFixture();
    use(current);
  });
  afterEach(async () => {
    expect(current!.jobErrors).toEqual([]);
    await current!.close();
  });
}
