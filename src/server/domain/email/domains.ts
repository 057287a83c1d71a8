import type { DnsAnswer } from '../../world/dns.js';
import type { DomainDeps, TxDeps, DomainScheduler, DomainEvents } from '../deps.js';
import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { Actor } from '../actor.js';
import type { SendingDomainRecord, SendingDomainsRepo } from '../../storage/sending-domains-repo.js';
import type { DnsResolver } from '../../world/dns.js';
import type { DomainStatus } from '../../../api/values/email.js';
import type { Page } from '../../../api/schemas/page.js';
import { newId, randomBase62 } from '../../ids.js';
import { ServiceError, conflict, notFound } from '../../errors.js';
import { canonicalDomain, checkSendingDomain } from './domain-rules.js';
import { mayAdd } from './zone-claims.js';
import { assertMayChange } from '../test-keys.js';
import { checkOutcome, judgeRecord, recordsToPublish } from './dns-records.js';
import { nextCheckAt, releaseAt, statusAfterCheck } from './domain-state.js';

// spec: Sending domain, Sending domain status, Email domains endpoints; contract §8. The life of a domain:
//   (new) ──create──▶ pending ──check: all required valid──▶ verified ──check: a required record fails──▶ degraded
//                        │    └─check: missing/wrong──▶ failed ──check: valid──▶ verified      ◀──recovers──┘
//                        └── never verified 7 days after creation ──▶ released (row deleted, domain.expired)
// A check is a manual verify or an automatic one (scheduler jobs on the service clock, so a clock
// advance walks them and a restart resumes them). Events are emitted only on a status change, in the
// transaction that saves the row.

export interface DomainsDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  events: DomainEvents;
  sendingDomains: SendingDomainsRepo;
  /** contract §8: DNS answers through a resolver (the sandbox DNS table on the local service). */
  dns: DnsResolver;
}

/** Automatic checks of a domain never verified: DOMAIN_CHECK_SCHEDULE's early then hourly checks, for 72 h. */
export const JOB_DOMAIN_RECHECK = 'domain.recheck';
/** Automatic checks of a domain ever verified: daily, forever. */
export const JOB_DOMAIN_MONITOR = 'domain.monitor';
/** The release of a domain still unverified 7 days after creation. */
export const JOB_DOMAIN_RELEASE = 'domain.release';

/** The `status` field of `domain.expired` (the domain itself no longer exists, so it has none). */
export const EXPIRED_STATUS = 'expired';

interface DomainJobPayload {
  domainId: string;
}

const EVENT_FOR: Record<DomainStatus, string | null> = {
  pending: null, // never entered by a check: only creation makes a domain pending
  verified: 'domain.verified',
  failed: 'domain.failed',
  degraded: 'domain.degraded',
};

// spec: Event catalog — `domain.*` carry `{domainId, domain, status}`.
async function emitDomainEvent(deps: Pick<DomainsDeps, 'events'>, d: SendingDomainRecord, type: string, status: string): Promise<void> {
  await deps.events.emit(d.accountId, type, { domainId: d.id, domain: d.domain, status });
}

/** Decision: a DKIM selector unique to the domain, lower-case (DNS labels are case-insensitive). */
const newSelector = (): string => `svc${randomBase62(12).toLowerCase()}`;

// --- create -------------------------------------------------------------------------------------------

/**
 * POST /v1/domains: a `pending` domain with the records to publish. The first check is not run here:
 * the records cannot be published before the caller has seen them. spec: "a domain belongs to one
 * account only" — another account's → 409; the caller's own → 409 naming it. A name at or
 * under a domain another account verified → 409; another account's never-verified claim of a name
 * under a domain the caller verified is released for it (`zone-claims.ts` `mayAdd`). A released
 * domain's row is gone, so adding it again starts over (spec: "adding it again retries").
 */
export async function createDomain(deps: DomainsDeps, actor: Actor, input: string): Promise<SendingDomainRecord> {
  const verdict = checkSendingDomain(input);
  // contract §8: a rejected domain is 400 validation_error on `domain`.
  if (!verdict.ok) throw new ServiceError('validation_error', `domain: ${verdict.message}`, [{ path: ['body', 'domain'], message: verdict.message }]);
  return await deps.uow.write(async (tx) => {
    const claims = await tx.sendingDomains.claimsOver(verdict.domain);
    const may = mayAdd(actor.account.id, verdict.domain, claims);
    if (!may.ok) {
      const by = claims.find((c) => c.domain === may.by.domain)!;
      if (may.reason === 'own') throw conflict(`${verdict.domain} is already on this account as ${by.id} (status ${by.status}); verify it with POST /v1/domains/${by.id}/verify`);
      if (may.reason === 'under_proven') throw conflict(`${verdict.domain} is under ${by.domain}, a domain another account verified; only that account may add names under it`);
      throw conflict(`${verdict.domain} belongs to another account; a domain can be added by one account only`);
    }
    if (may.release) await releaseClaim(tx, claims.find((c) => c.domain === may.release.domain)!);
    const now = tx.clock.nowMs();
    const domain: SendingDomainRecord = {
      id: newId('dom'),
      accountId: actor.account.id,
      domain: verdict.domain,
      status: 'pending',
      records: recordsToPublish(verdict.domain, randomBase62(32), newSelector()),
      everVerified: false,
      mode: actor.mode,
      createdAt: now,
      verifiedAt: null,
      lastCheckedAt: null,
      updatedAt: now,
    };
    await tx.sendingDomains.insert(domain);
    const first = nextCheckAt(domain, now);
    if (first !== null) await tx.scheduler.schedule(JOB_DOMAIN_RECHECK, first, { domainId: domain.id } satisfies DomainJobPayload);
    await tx.scheduler.schedule(JOB_DOMAIN_RELEASE, releaseAt(now), { domainId: domain.id } satisfies DomainJobPayload);
    return domain;
  });
}

/** A never-verified domain let go (its 7 days over, or taken by the account that proved a parent): the row goes, `domain.expired`. */
async function releaseClaim(deps: Pick<DomainsDeps, 'sendingDomains' | 'events'>, d: SendingDomainRecord): Promise<void> {
  await deps.sendingDomains.delete(d.id);
  await emitDomainEvent(deps, d, 'domain.expired', EXPIRED_STATUS);
}

// --- reads and delete ---------------------------------------------------------------------------------

async function ownDomain(deps: Pick<DomainsDeps, 'sendingDomains'>, actor: Actor, id: string): Promise<SendingDomainRecord> {
  const d = await deps.sendingDomains.get(actor.account.id, id);
  // spec: Authentication 6 — another account's domain is not_found.
  if (!d) throw notFound('domain');
  return d;
}

export async function getDomain(deps: Pick<DomainsDeps, 'sendingDomains'>, actor: Actor, id: string): Promise<SendingDomainRecord> {
  return await ownDomain(deps, actor, id);
}

export async function listDomains(deps: Pick<DomainsDeps, 'sendingDomains'>, actor: Actor, f: { status?: DomainStatus }, limit: number, cursor?: string): Promise<Page<SendingDomainRecord>> {
  return await deps.sendingDomains.list(actor.account.id, f, limit, cursor);
}

/**
 * DELETE /v1/domains/{id}: the row goes; its scheduled checks and release find nothing and do nothing.
 * contract §2: a domain added with a live key (live email depends on it) is a live key's to delete.
 */
export async function deleteDomain(deps: Pick<DomainsDeps, 'uow' | 'sendingDomains'>, actor: Actor, id: string): Promise<void> {
  await deps.uow.write(async (tx) => {
    const d = await ownDomain(tx, actor, id);
    assertMayChange(actor, d.mode, `the domain ${d.domain}`);
    await tx.sendingDomains.delete(d.id);
  });
}

/**
 * For the send path (spec: "Only a verified domain can send"): the account's domain of that name, or
 * undefined. The caller checks `status === 'verified'` (degraded blocks sending).
 */
export async function sendingDomainFor(deps: Pick<DomainsDeps, 'sendingDomains'>, accountId: string, domainName: string): Promise<SendingDomainRecord | undefined> {
  const d = await deps.sendingDomains.findByDomain(canonicalDomain(domainName));
  return d && d.accountId === accountId ? d : undefined;
}

// --- the check ----------------------------------------------------------------------------------------

/** What DNS answers for each of a domain's records, by name and type. */
type DnsAnswers = Map<string, DnsAnswer>;
const answerKey = (r: { name: string; type: string }): string => `${r.type} ${r.name}`;

/**
 * Asks DNS for every record of `d`. DNS is the outside world: this runs with no
 * transaction open, and the check that uses the answers runs in a transaction after it.
 */
async function lookUp(deps: Pick<DomainDeps, 'dns'>, d: SendingDomainRecord): Promise<DnsAnswers> {
  const answers = await Promise.all(d.records.map(async (r) => [answerKey(r), await deps.dns.resolve(r.name, r.type)] as const));
  return new Map(answers);
}

/**
 * Runs one check of `d` now (inside the caller's transaction) with the answers DNS gave just before:
 * each record judged, the status moved by the table, the row saved, and the event emitted only when
 * the status changed. Returns whether this check verified the domain for the first time (the daily
 * monitor starts then).
 */
async function runCheck(deps: DomainsDeps, d: SendingDomainRecord, answers: DnsAnswers): Promise<{ firstVerified: boolean }> {
  const now = deps.clock.nowMs();
  d.records = d.records.map((r) => ({ ...r, status: judgeRecord(r, answers.get(answerKey(r)) ?? { state: 'missing' }) }));
  const previous = d.status;
  const next = statusAfterCheck(previous, checkOutcome(d.records));
  const firstVerified = next === 'verified' && !d.everVerified;
  d.status = next;
  if (next === 'verified' && previous !== 'verified') {
    d.verifiedAt = now;
    d.everVerified = true;
  }
  d.lastCheckedAt = now;
  d.updatedAt = now;
  await deps.sendingDomains.save(d);
  const type = next !== previous ? EVENT_FOR[next] : null;
  if (type) await emitDomainEvent(deps, d, type, next);
  if (firstVerified) await deps.scheduler.schedule(JOB_DOMAIN_MONITOR, nextCheckAt(d, now)!, { domainId: d.id } satisfies DomainJobPayload);
  return { firstVerified };
}

/**
 * POST /v1/domains/{id}/verify: checks now, whatever the status; the response's `status` is
 * authoritative (spec: a 200 does not mean verified). Decision: a manual check of a verified domain
 * follows the same table as an automatic one (a failing required record → degraded).
 */
export async function verifyDomain(deps: Pick<DomainDeps, 'uow' | 'dns'>, actor: Actor, id: string): Promise<SendingDomainRecord> {
  const answers = await lookUp(deps, await deps.uow.read((tx) => ownDomain(tx, actor, id)));
  return await deps.uow.write(async (tx) => {
    const d = await ownDomain(tx, actor, id);
    await runCheck(tx, d, answers);
    return d;
  });
}

/** A job's check: the domain read, DNS asked with no transaction open, then the check written (`then` runs in its transaction). */
async function checkLater(
  deps: DomainDeps,
  domainId: string,
  wanted: (d: SendingDomainRecord) => boolean,
  then: (tx: TxDeps, d: SendingDomainRecord, answers: DnsAnswers) => Promise<void>,
): Promise<void> {
  const before = await deps.uow.read((tx) => tx.sendingDomains.getById(domainId));
  if (!before || !wanted(before)) return;
  const answers = await lookUp(deps, before);
  await deps.uow.write(async (tx) => {
    const d = await tx.sendingDomains.getById(domainId);
    if (d && wanted(d)) await then(tx, d, answers);
  });
}

// --- the clock's jobs ---------------------------------------------------------------------------------

export function registerDomainJobs(deps: DomainDeps): void {
  // Re-checks of a never-verified domain, 72 h from creation. The chain ends when the domain is gone,
  // once verified (the monitor takes over), or past 72 h (the release then comes at 7 days).
  deps.scheduler.registerOutside(JOB_DOMAIN_RECHECK, (p: DomainJobPayload) =>
    checkLater(deps, p.domainId, (d) => !d.everVerified, async (tx, d, answers) => {
      const { firstVerified } = await runCheck(tx, d, answers);
      if (firstVerified) return;
      const next = nextCheckAt(d, tx.clock.nowMs());
      if (next !== null) await tx.scheduler.schedule(JOB_DOMAIN_RECHECK, next, p);
    }), 'sending domains re-checked');

  // The daily check of a domain that was ever verified, forever (verified ↔ degraded).
  deps.scheduler.registerOutside(JOB_DOMAIN_MONITOR, (p: DomainJobPayload) =>
    checkLater(deps, p.domainId, () => true, async (tx, d, answers) => {
      await runCheck(tx, d, answers);
      await tx.scheduler.schedule(JOB_DOMAIN_MONITOR, nextCheckAt(d, tx.clock.nowMs())!, p);
    }), 'verified sending domains checked');

  // spec: Sending domain status — pending (never verified) for 7 days → released, `domain.expired`;
  // a domain that was ever verified is never released. Decision: the event's `status` is `expired`
  // (like every domain.* event, its status names what happened); the row no longer exists.
  deps.scheduler.register(JOB_DOMAIN_RELEASE, async (p: DomainJobPayload, _job, tx) => {
      const d = await tx.sendingDomains.getById(p.domainId);
      if (!d || d.everVerified) return;
      await releaseClaim(tx, d);
    }, 'unverified sending domains released');
}
