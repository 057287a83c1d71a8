import { outsideFirst } from './outside-first.js';
import type { DomainDeps, DomainScheduler } from './deps.js';
import type { Clock } from '../clock.js';
import type { UnitOfWork } from './deps.js';
import type { NumbersRepo, NumberRecord, NumberFilters } from '../storage/numbers-repo.js';
import { UniqueConstraintError } from '../storage/storage-errors.js';
import { charge, type BillingDeps } from './billing/charging.js';
import { NUMBER_RENEWAL } from '../../api/values/billing.js';
import type { CampaignsRepo } from '../storage/campaigns-repo.js';
import type { Carrier, TollfreeSubmission } from '../world/carrier.js';
import { areaCodesForLocality, isInInventory, searchInventory, type AvailableNumber } from '../world/number-inventory.js';
import { PRICES } from '../../api/values/prices.js';
import { monthStart } from './month.js';
import type { Actor } from './actor.js';
import { assertMayChange, type KeyMode } from './test-keys.js';
import { newId } from '../ids.js';
import { ServiceError, conflict, notFound, validationError } from '../errors.js';
import { E164_PATTERN } from '../../api/schemas/common.js';
import type {
  EmergencyAddress,
  SearchNumbersBody,
  TollfreeDecisionBody,
  UpdateNumberBody,
  VerifyTollfreeBody,
} from '../../api/schemas/numbers.js';
import type { Page } from '../../api/schemas/page.js';

export interface NumbersDeps extends BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  numbers: NumbersRepo;
  campaigns: CampaignsRepo;
  carrier: Carrier;
}

export const JOB_CALLER_ID = 'number.caller_id_propagated';
export const JOB_EMERGENCY = 'number.emergency_provisioned';
export const JOB_TOLLFREE_REVIEW = 'number.tollfree_review';
export const JOB_RENEWAL = 'number.renewal';

const channelUnsupported = (message: string, path: Array<string | number>) =>
  new ServiceError('channel_unsupported', message, [{ path, message }]);

// --- search and buy -------------------------------------------------------------------------------

/** contract §5: the simulated inventory, never a number any account owns. Returned whole (up to `limit`). */
export async function searchNumbers(deps: Pick<NumbersDeps, 'numbers'>, q: SearchNumbersBody): Promise<AvailableNumber[]> {
  // contract §5: a local search needs `areaCode`; `locality` narrows it and cannot replace it. The
  // error names that locality's area codes, so a caller who gave only a city can retry with one.
  if (q.type === 'local' && q.areaCode === undefined) {
    const codes = q.locality === undefined ? [] : areaCodesForLocality(q.locality);
    const hint = q.locality === undefined ? '' : codes.length ? `; area codes for ${q.locality}: ${codes.join(', ')}` : `; no area code is known for "${q.locality}"`;
    throw validationError(['body', 'areaCode'], `required for local numbers${hint}`);
  }
  return searchInventory(
    { type: q.type, areaCode: q.areaCode, locality: q.locality, contains: q.contains, capabilities: q.capabilities, limit: q.limit },
    async (e164) => await deps.numbers.isOwned(e164),
  );
}

/** A freshly owned number (bought, or ported in): `idle`, no campaign, nothing provisioned. */
function newNumberRecord(
  accountId: string,
  mode: KeyMode,
  n: Pick<AvailableNumber, 'phoneNumber' | 'type' | 'capabilities' | 'locality' | 'region'>,
  now: number,
): NumberRecord {
  return {
    id: newId('num'),
    accountId,
    mode,
    phoneNumber: n.phoneNumber,
    type: n.type,
    capabilities: { ...n.capabilities },
    locality: n.locality,
    region: n.region,
    label: null,
    status: 'idle',
    campaignId: null,
    callerIdName: null,
    callerIdStatus: 'off',
    callerIdRequestedAt: null,
    emergencyEnabled: false,
    emergencyAddress: null,
    emergencyStatus: 'off',
    emergencyRequestedAt: null,
    // spec: Toll-free verification — local numbers stay not_applicable.
    tfvStatus: n.type === 'tollfree' ? 'unverified' : 'not_applicable',
    tfvRejectionReason: null,
    tfvSubmission: null,
    tfvSubmittedAt: null,
    releasedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * contract §7: a completed port's numbers become the account's numbers, status `idle`. Call inside
 * the transaction that completes the port. Throws UniqueConstraintError when another account owns
 * the number already (the caller decides what that means for the port).
 */
export async function adoptPortedNumber(
  deps: Pick<NumbersDeps, 'numbers'>,
  accountId: string,
  mode: KeyMode,
  n: Pick<AvailableNumber, 'phoneNumber' | 'type' | 'capabilities' | 'locality' | 'region'>,
  now: number,
): Promise<NumberRecord> {
  const record = newNumberRecord(accountId, mode, n, now);
  await deps.numbers.insert(record);
  return record;
}

/** contract §5: buy → `idle`; taken or not in inventory → 409; first month charged (live keys only). */
export async function buyNumber(deps: NumbersDeps, actor: Actor, phoneNumber: string): Promise<NumberRecord> {
  const offer = isInInventory(phoneNumber);
  if (!offer) throw conflict(`${phoneNumber} is not available from the carrier; search for numbers with POST /v1/numbers/search`);
  const now = deps.clock.nowMs();
  const record = newNumberRecord(actor.account.id, actor.mode, offer, now);
  return await deps.uow.write(async (tx) => {
    if (await tx.numbers.isOwned(phoneNumber)) throw conflict(`${phoneNumber} is already taken`);
    try {
      await tx.numbers.insert(record);
    } catch (err) {
      // The partial unique index is the last word on ownership.
      if (err instanceof UniqueConstraintError) throw conflict(`${phoneNumber} is already taken`);
      throw err;
    }
    // contract §11: the first month is charged on buy (live keys only); refused → 402 and no number
    // (the insert rolls back with the transaction). The next month is a renewal on the clock.
    await charge(tx, { accountId: actor.account.id, mode: actor.mode }, monthlyFee(record));
    if (actor.mode === 'live') {
      await tx.scheduler.schedule(JOB_RENEWAL, now + NUMBER_RENEWAL.periodSecs * 1000, { numberId: record.id, periodStart: now + NUMBER_RENEWAL.periodSecs * 1000 } satisfies RenewalPayload);
    }
    return record;
  });
}

// --- reads -----------------------------------------------------------------------------------------

/**
 * A number by id, or by its E.164 form (contract §5 asks it of the CLI; the service accepts it too).
 * For E.164 the owned record wins, else the latest released one.
 */
export async function resolveNumber(deps: Pick<NumbersDeps, 'numbers'>, actor: Actor, idOrPhone: string): Promise<NumberRecord> {
  const accountId = actor.account.id;
  const number = E164_PATTERN.test(idOrPhone) ? await deps.numbers.findByPhone(accountId, idOrPhone) : await deps.numbers.get(accountId, idOrPhone);
  // spec: Authentication 6 — another account's number is not_found.
  if (!number) throw notFound('number');
  return number;
}

/**
 * A number the actor is about to change (PATCH, release, assign, toll-free verification, its route
 * and greeting, a sandbox verdict on it). contract §2: a number bought with a live key costs live
 * money every month and carries live traffic, so a test key may read it but not change it.
 */
export async function numberToChange(deps: Pick<NumbersDeps, 'numbers'>, actor: Actor, idOrPhone: string): Promise<NumberRecord> {
  const number = await resolveNumber(deps, actor, idOrPhone);
  assertMayChange(actor, number.mode, `the number ${number.phoneNumber}`);
  return number;
}

export async function listNumbers(deps: Pick<NumbersDeps, 'numbers'>, actor: Actor, f: NumberFilters, limit: number, cursor?: string): Promise<Page<NumberRecord>> {
  return await deps.numbers.list(actor.account.id, f, limit, cursor);
}

/** The names of the numbers' campaigns, by campaign id (one lookup for a whole page). */
export async function campaignNames(deps: Pick<NumbersDeps, 'campaigns'>, records: readonly NumberRecord[]): Promise<ReadonlyMap<string, string>> {
  return await deps.campaigns.namesByIds(records.flatMap((n) => (n.campaignId ? [n.campaignId] : [])));
}

function assertOwned(n: NumberRecord): void {
  if (n.status === 'released') throw conflict(`${n.phoneNumber} was released`);
}

// --- update ----------------------------------------------------------------------------------------

/** PATCH /v1/numbers/{id}: label, caller ID name, emergency calling. All or nothing. */
export async function updateNumber(deps: NumbersDeps, actor: Actor, idOrPhone: string, patch: UpdateNumberBody): Promise<NumberRecord> {
  return await deps.uow.write(async (tx) => {
    const n = await numberToChange(tx, actor, idOrPhone);
    assertOwned(n);
    const now = tx.clock.nowMs();

    if (patch.label !== undefined) n.label = patch.label === '' ? null : patch.label;

    if (patch.callerIdName !== undefined) {
      const name = patch.callerIdName.name;
      if (name === null) {
        n.callerIdName = null;
        n.callerIdStatus = 'off';
        n.callerIdRequestedAt = null;
      } else if (!(name === n.callerIdName && (n.callerIdStatus === 'pending' || n.callerIdStatus === 'active'))) {
        // Caller ID name (CNAM) is shown on calls: a number that cannot call has none.
        if (!n.capabilities.voice) throw channelUnsupported(`${n.phoneNumber} has no voice capability`, ['body', 'callerIdName']);
        // contract §5: sets status pending; active 48 h later on the clock.
        n.callerIdName = name;
        n.callerIdStatus = 'pending';
        n.callerIdRequestedAt = now;
        await tx.scheduler.schedule(JOB_CALLER_ID, now + tx.carrier.timings.callerIdPropagationMs, { numberId: n.id, requestedAt: now });
      }
    }

    if (patch.emergency !== undefined) await updateEmergency(tx, actor, n, patch.emergency, now);

    n.updatedAt = now;
    await tx.numbers.save(n);
    return n;
  });
}

async function updateEmergency(deps: NumbersDeps, actor: Actor, n: NumberRecord, e: NonNullable<UpdateNumberBody['emergency']>, now: number): Promise<void> {
  let address: EmergencyAddress | null = n.emergencyAddress;
  if (e.address) {
    // The carrier checks the address with no transaction open (outside-first.ts).
    const address0 = e.address;
    const check = outsideFirst(deps, `emergency-address:${JSON.stringify(address0)}`, async (d) => d.carrier.checkEmergencyAddress(address0));
    // spec: Errors — address_suggestion: the carrier can place the address only after a correction.
    if (!check.ok && check.kind === 'suggestion') throw new ServiceError('address_suggestion', check.message, { suggested: check.suggested });
    if (!check.ok) throw validationError(['body', 'emergency', 'address', 'zip'], check.message);
    address = check.address;
  }
  if (!e.enabled) {
    n.emergencyEnabled = false;
    n.emergencyStatus = 'off';
    n.emergencyRequestedAt = null;
    n.emergencyAddress = address;
    return;
  }
  // Emergency calling is a voice service on a geographic number.
  if (!n.capabilities.voice) throw channelUnsupported(`${n.phoneNumber} has no voice capability`, ['body', 'emergency']);
  if (n.type === 'tollfree') throw channelUnsupported('emergency calling is not available on toll-free numbers', ['body', 'emergency']);
  if (!address) throw validationError(['body', 'emergency', 'address'], 'required to enable emergency calling');
  const unchanged =
    n.emergencyEnabled && JSON.stringify(address) === JSON.stringify(n.emergencyAddress) && n.emergencyStatus !== 'failed';
  if (unchanged) return;
  const wasEnabled = n.emergencyEnabled;
  n.emergencyEnabled = true;
  n.emergencyAddress = address;
  n.emergencyStatus = 'pending';
  n.emergencyRequestedAt = now;
  await deps.scheduler.schedule(JOB_EMERGENCY, now + deps.carrier.timings.emergencyProvisioningMs, { numberId: n.id, requestedAt: now });
  // contract §11: emergency 150/month, first month charged when it is turned on (live only), once a month.
  // A refusal (402) rolls the whole update back: emergency stays as it was.
  if (!wasEnabled && !await deps.ledger.hasCharge(n.id, 'emergency', monthStart(now))) {
    await charge(deps, { accountId: n.accountId, mode: actor.mode }, { category: 'emergency', quantity: 1, amountCents: PRICES.emergencyMonthly, ref: n.id });
  }
}

// --- release and assign ----------------------------------------------------------------------------

/** contract §5: → released (releasedAt set, campaign detached, emergency off); again → 409. */
export async function releaseNumber(deps: NumbersDeps, actor: Actor, idOrPhone: string): Promise<NumberRecord> {
  return await deps.uow.write(async (tx) => {
    const n = await numberToChange(tx, actor, idOrPhone);
    if (n.status === 'released') throw conflict(`${n.phoneNumber} is already released`);
    const now = tx.clock.nowMs();
    n.status = 'released';
    n.releasedAt = now;
    n.campaignId = null;
    n.emergencyEnabled = false;
    n.emergencyStatus = 'off';
    n.emergencyRequestedAt = null;
    n.updatedAt = now;
    await tx.numbers.save(n);
    return n;
  });
}

/** contract §5: attach to an approved campaign (→ live) or detach with null (→ idle). */
export async function assignNumber(deps: NumbersDeps, actor: Actor, idOrPhone: string, campaignId: string | null): Promise<NumberRecord> {
  return await deps.uow.write(async (tx) => {
    const n = await numberToChange(tx, actor, idOrPhone);
    assertOwned(n);
    if (n.type === 'tollfree') {
      throw channelUnsupported('toll-free numbers are not registered under 10DLC campaigns; verify them instead', ['body', 'campaignId']);
    }
    if (!n.capabilities.sms) throw channelUnsupported(`${n.phoneNumber} has no sms capability`, ['body', 'campaignId']);
    if (campaignId === null) {
      n.campaignId = null;
      n.status = 'idle';
    } else {
      const campaign = await tx.campaigns.get(actor.account.id, campaignId);
      if (!campaign) throw notFound('campaign');
      if (campaign.status !== 'approved') throw conflict(`campaign ${campaign.id} is ${campaign.status}, not approved`);
      n.campaignId = campaign.id;
      n.status = 'live';
    }
    n.updatedAt = tx.clock.nowMs();
    await tx.numbers.save(n);
    return n;
  });
}

// --- toll-free verification ------------------------------------------------------------------------

/** spec: Toll-free verification — unverified/rejected/action_required → pending; the carrier decides 72 h later. */
export async function verifyTollfree(deps: NumbersDeps, actor: Actor, idOrPhone: string, body: VerifyTollfreeBody): Promise<NumberRecord> {
  return await deps.uow.write(async (tx) => {
    const n = await numberToChange(tx, actor, idOrPhone);
    assertOwned(n);
    if (n.type !== 'tollfree') throw conflict('toll-free verification applies to toll-free numbers only (this number is local)');
    if (n.tfvStatus === 'pending' || n.tfvStatus === 'verified') throw conflict(`toll-free verification is already ${n.tfvStatus}`);
    const now = tx.clock.nowMs();
    n.tfvStatus = 'pending';
    n.tfvRejectionReason = null;
    n.tfvSubmission = { ...body, website: body.website || null };
    n.tfvSubmittedAt = now;
    n.updatedAt = now;
    await tx.numbers.save(n);
    await tx.scheduler.schedule(JOB_TOLLFREE_REVIEW, now + tx.carrier.timings.tollfreeReviewMs, { numberId: n.id, submittedAt: now });
    return n;
  });
}

async function decide(deps: NumbersDeps, n: NumberRecord, status: 'verified' | 'rejected' | 'action_required', reason: string | null): Promise<void> {
  n.tfvStatus = status;
  n.tfvRejectionReason = status === 'verified' ? null : reason;
  n.updatedAt = deps.clock.nowMs();
  await deps.numbers.save(n);
}

/** contract §9: the carrier's verdict at once. Only a pending verification can be decided. */
export async function sandboxTollfreeDecision(deps: NumbersDeps, actor: Actor, idOrPhone: string, body: TollfreeDecisionBody): Promise<NumberRecord> {
  return await deps.uow.write(async (tx) => {
    const n = await numberToChange(tx, actor, idOrPhone);
    assertOwned(n);
    if (n.type !== 'tollfree') throw conflict('toll-free verification applies to toll-free numbers only (this number is local)');
    if (n.tfvStatus !== 'pending') throw conflict(`no toll-free verification is pending (status ${n.tfvStatus})`);
    const fallback = body.decision === 'rejected' ? 'rejected by the carrier' : 'the carrier asks for more information';
    await decide(tx, n, body.decision, body.reason ?? fallback);
    return n;
  });
}

// --- durable jobs ----------------------------------------------------------------------------------

interface ProvisioningPayload {
  numberId: string;
  requestedAt: number;
}
interface RenewalPayload {
  numberId: string;
  /** The start of the month this renewal pays for (a retry keeps it: the next one starts a period later). */
  periodStart: number;
}

/** contract §11: a number's monthly price under its usage category. */
function monthlyFee(n: Pick<NumberRecord, 'id' | 'type'>) {
  return n.type === 'tollfree'
    ? { category: 'tollfree_number' as const, quantity: 1, amountCents: PRICES.tollfreeNumberMonthly, ref: n.id }
    : { category: 'local_number' as const, quantity: 1, amountCents: PRICES.localNumberMonthly, ref: n.id };
}

/**
 * contract §11: one month of a live number, then of its emergency calling when it is on, charged
 * from the wallet. Each fee is charged at most once per period (a replayed job or a retry skips what
 * is paid already). Throws 402 (charge writes nothing before it throws) at the first fee the wallet
 * cannot pay; fees paid before it stay paid.
 */
async function renewNumber(deps: NumbersDeps, n: NumberRecord, periodStart: number): Promise<void> {
  const live = { accountId: n.accountId, mode: 'live' as const };
  const fee = monthlyFee(n);
  if (!await deps.ledger.hasCharge(n.id, fee.category, periodStart)) await charge(deps, live, fee);
  if (n.emergencyEnabled && !await deps.ledger.hasCharge(n.id, 'emergency', periodStart)) {
    await charge(deps, live, { category: 'emergency', quantity: 1, amountCents: PRICES.emergencyMonthly, ref: n.id });
  }
}

interface ReviewPayload {
  numberId: string;
  submittedAt: number;
}

/**
 * Each job carries the time of the request it completes: a later change (a new name, a new
 * address, a resubmission, a sandbox decision, a release) makes the older job a no-op.
 */
export function registerNumberJobs(deps: DomainDeps): void {
  deps.scheduler.register(JOB_CALLER_ID, async (p: ProvisioningPayload, _job, tx) => {
      const n = await tx.numbers.getById(p.numberId);
      if (!n || n.status === 'released' || n.callerIdStatus !== 'pending' || n.callerIdRequestedAt !== p.requestedAt) return;
      n.callerIdStatus = 'active';
      n.updatedAt = tx.clock.nowMs();
      await tx.numbers.save(n);
    }, 'caller ID names propagated');

  deps.scheduler.register(JOB_EMERGENCY, async (p: ProvisioningPayload, _job, tx) => {
      const n = await tx.numbers.getById(p.numberId);
      if (!n || n.status === 'released' || n.emergencyStatus !== 'pending' || n.emergencyRequestedAt !== p.requestedAt) return;
      n.emergencyStatus = 'active';
      n.updatedAt = tx.clock.nowMs();
      await tx.numbers.save(n);
    }, 'emergency addresses provisioned');

  // contract §11, Decision (NUMBER_RENEWAL): the monthly renewal of a live number. Paid → the next
  // renewal a period later. Refused (402: empty wallet, spend limit) → the number stays, no charge is
  // recorded, and the same period is retried a day later until paid. A released number renews no more.
  deps.scheduler.register(JOB_RENEWAL, async (p: RenewalPayload, _job, tx) => {
      const n = await tx.numbers.getById(p.numberId);
      if (!n || n.status === 'released') return;
      const now = tx.clock.nowMs();
      try {
        await renewNumber(tx, n, p.periodStart);
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status !== 402) throw err;
        await tx.scheduler.schedule(JOB_RENEWAL, now + NUMBER_RENEWAL.retrySecs * 1000, p);
        return;
      }
      const next = p.periodStart + NUMBER_RENEWAL.periodSecs * 1000;
      await tx.scheduler.schedule(JOB_RENEWAL, next, { numberId: n.id, periodStart: next } satisfies RenewalPayload);
    }, 'number monthly renewals');

  // The carrier reviews with no transaction open; its verdict is written if the number
  // still waits for it.
  const awaitingReview = (n: NumberRecord | undefined, p: ReviewPayload): n is NumberRecord =>
    !!n && n.status !== 'released' && n.tfvStatus === 'pending' && n.tfvSubmittedAt === p.submittedAt;
  deps.scheduler.registerOutside(JOB_TOLLFREE_REVIEW, async (p: ReviewPayload) => {
    const before = await deps.uow.read((tx) => tx.numbers.getById(p.numberId));
    if (!awaitingReview(before, p)) return;
    const verdict = await deps.carrier.reviewTollfree((before.tfvSubmission ?? {}) as unknown as TollfreeSubmission);
    await deps.uow.write(async (tx) => {
      const n = await tx.numbers.getById(p.numberId);
      if (awaitingReview(n, p)) await decide(tx, n, verdict.status, verdict.status === 'rejected' ? verdict.reason : null);
    });
  }, 'toll-free verification decisions');
}
