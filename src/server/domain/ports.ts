import type { DomainDeps, DomainScheduler, DomainEvents } from './deps.js';
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import type { UnitOfWork } from './deps.js';
import type { Actor } from './actor.js';
import { assertMayChange } from './test-keys.js';
import type { NumbersRepo } from '../storage/numbers-repo.js';
import { charge, type BillingDeps } from './billing/charging.js';
import type { PortDocumentRecord, PortFilters, PortRecord, PortsRepo } from '../storage/ports-repo.js';
import { losingCarrierVerdict, portedNumberProfile, registryPortability, type Portability } from '../world/port-registry.js';
import { adoptPortedNumber } from './numbers.js';
import { PORT_DOCUMENT_TYPES, PORT_LIMITS, PORT_REASONS, PORT_TIMINGS, type PortStatus } from '../../api/values/registration.js';
import { PRICES } from '../../api/values/prices.js';
import { newId } from '../ids.js';
import { ServiceError, conflict, notFound, validationError } from '../errors.js';
import type { ErrorDetail } from '../../api/schemas/errors.js';
import type { CreatePortBody, PortDocumentBody, SandboxPortDecisionBody } from '../../api/schemas/ports.js';
import type { Page } from '../../api/schemas/page.js';

// contract §7 (ports), §9 (sandbox decision), §11 (port 100 per number). The port's life:
//   draft ──submit──▶ submitted ──24 h, the losing carrier's verdict──▶ foc_scheduled ──FOC date──▶ completed
//                                                                    └▶ rejected
//   draft | submitted | foc_scheduled ──cancel──▶ canceled
// Every move (creation included) emits `port.updated` in the transaction of the move.

export interface PortsDeps extends BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  events: DomainEvents;
  numbers: NumbersRepo;
  ports: PortsRepo;
}

export const JOB_PORT_VERDICT = 'port.carrier_verdict';
export const JOB_PORT_COMPLETE = 'port.complete';


/** A port as the API shows it: the record and its documents (without their bytes). */
export interface PortWithDocuments {
  port: PortRecord;
  documents: PortDocumentRecord[];
}

// contract §7: a port can be canceled only before it ends.
const CANCELABLE: ReadonlySet<PortStatus> = new Set(['draft', 'submitted', 'foc_scheduled']);

// --- portability -------------------------------------------------------------------------------------

/**
 * contract §7: whether a number can be ported in. The service's own knowledge first (a number any
 * account owns, or one an open port already holds), then the simulated registry (world/port-registry.ts).
 */
async function portabilityOf(deps: Pick<PortsDeps, 'numbers' | 'ports'>, phoneNumber: string): Promise<Portability> {
  if (await deps.numbers.isOwned(phoneNumber)) return { portable: false, reason: PORT_REASONS.alreadyOnService };
  if (await deps.ports.openPortFor(phoneNumber)) return { portable: false, reason: PORT_REASONS.openPort };
  return registryPortability(phoneNumber);
}

/** POST /v1/ports/check: one answer per number, in the order given. */
export async function checkPortability(
  deps: Pick<PortsDeps, 'numbers' | 'ports'>,
  _actor: Actor,
  phoneNumbers: readonly string[],
): Promise<Array<{ phoneNumber: string } & Portability>> {
  return Promise.all(phoneNumbers.map(async (phoneNumber) => ({ phoneNumber, ...(await portabilityOf(deps, phoneNumber)) })));
}

// --- create, documents, submit, cancel ---------------------------------------------------------------

async function emitUpdated(deps: Pick<PortsDeps, 'events'>, port: PortRecord, previousStatus: PortStatus | null): Promise<void> {
  // contract §7: `port.updated` on each move. Decision: the fields below (documented in the OpenAPI text).
  await deps.events.emit(port.accountId, 'port.updated', {
    portId: port.id,
    status: port.status,
    previousStatus,
    phoneNumbers: [...port.phoneNumbers],
    focDate: port.focDate === null ? null : iso(port.focDate),
    rejectionReason: port.rejectionReason,
  });
}

async function move(deps: Pick<PortsDeps, 'clock' | 'events' | 'ports'>, port: PortRecord, status: PortStatus, change: Partial<Pick<PortRecord, 'focDate' | 'rejectionReason'>> = {}): Promise<void> {
  const previous = port.status;
  port.status = status;
  if (change.focDate !== undefined) port.focDate = change.focDate;
  if (change.rejectionReason !== undefined) port.rejectionReason = change.rejectionReason;
  port.updatedAt = deps.clock.nowMs();
  await deps.ports.save(port);
  await emitUpdated(deps, port, previous);
}

/**
 * POST /v1/ports (contract §7): a `draft` port. Every number must be portable; each one that is not
 * (or is listed twice) is one `validation_error` detail on `["body","phoneNumbers",i]` carrying the
 * reason, all reported at once. The PIN is never kept: only whether one was given.
 */
export async function createPort(deps: PortsDeps, actor: Actor, body: CreatePortBody): Promise<PortWithDocuments> {
  return await deps.uow.write(async (tx) => {
    const details: ErrorDetail[] = [];
    const seen = new Set<string>();
    for (const [i, phoneNumber] of body.phoneNumbers.entries()) {
      if (seen.has(phoneNumber)) {
        details.push({ path: ['body', 'phoneNumbers', i], message: `${phoneNumber} is listed twice` });
        continue;
      }
      seen.add(phoneNumber);
      const p = await portabilityOf(tx, phoneNumber);
      if (!p.portable) details.push({ path: ['body', 'phoneNumbers', i], message: `${phoneNumber} is not portable: ${p.reason}` });
    }
    if (details.length) throw new ServiceError('validation_error', 'some numbers cannot be ported; check them with POST /v1/ports/check', details);

    const now = tx.clock.nowMs();
    const port: PortRecord = {
      id: newId('port'),
      accountId: actor.account.id,
      status: 'draft',
      phoneNumbers: [...body.phoneNumbers],
      authorizedName: body.authorizedName,
      accountNumber: body.accountNumber,
      hasPin: body.pin !== undefined,
      serviceAddress: { ...body.serviceAddress },
      focDate: null,
      rejectionReason: null,
      mode: actor.mode,
      createdAt: now,
      updatedAt: now,
    };
    await tx.ports.insert(port);
    await emitUpdated(tx, port, null);
    return { port, documents: [] };
  });
}

async function ownPort(deps: Pick<PortsDeps, 'ports'>, actor: Actor, id: string): Promise<PortRecord> {
  const port = await deps.ports.get(actor.account.id, id);
  // spec: Authentication 6 — another account's port is not_found.
  if (!port) throw notFound('port');
  return port;
}

/** contract §2: a port created with a live key (its fees live money, its numbers live ones) is a live key's to change. */
async function portToChange(deps: Pick<PortsDeps, 'ports'>, actor: Actor, id: string): Promise<PortRecord> {
  const port = await ownPort(deps, actor, id);
  assertMayChange(actor, port.mode, 'this port');
  return port;
}

async function withDocuments(deps: Pick<PortsDeps, 'ports'>, port: PortRecord): Promise<PortWithDocuments> {
  return { port, documents: (await deps.ports.documentsFor([port.id])).get(port.id) ?? [] };
}

// One character class, not a repeated group: a group repeated over megabytes overflows the regex engine.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The decoded bytes of a document, or a validation_error on `["body","contentBase64"]`. */
function decodeDocument(contentBase64: string): Buffer {
  // Strict base64 (padded, standard alphabet): Buffer.from would silently skip bad characters.
  if (contentBase64.length % 4 !== 0 || !BASE64.test(contentBase64)) throw validationError(['body', 'contentBase64'], 'must be base64 (standard alphabet, padded)');
  const bytes = Buffer.from(contentBase64, 'base64');
  if (bytes.length === 0) throw validationError(['body', 'contentBase64'], 'the document is empty');
  // contract §7 / Decision PORT_LIMITS: a document is at most documentBytes decoded.
  if (bytes.length > PORT_LIMITS.documentBytes) {
    throw validationError(['body', 'contentBase64'], `the document is ${bytes.length} bytes; at most ${PORT_LIMITS.documentBytes} bytes are accepted`);
  }
  return bytes;
}

/**
 * POST /v1/ports/{id}/documents (contract §7): attaches an `loa` or a `bill`, only while `draft` (else
 * 409). Decision: a port keeps one document per type; a new upload replaces the earlier one.
 */
export async function addPortDocument(deps: PortsDeps, actor: Actor, id: string, body: PortDocumentBody): Promise<PortWithDocuments> {
  const content = decodeDocument(body.contentBase64);
  return await deps.uow.write(async (tx) => {
    const port = await portToChange(tx, actor, id);
    if (port.status !== 'draft') throw conflict(`documents can be attached only while the port is draft (it is ${port.status})`);
    const now = tx.clock.nowMs();
    await tx.ports.putDocument({ id: newId('pdoc'), portId: port.id, type: body.type, filename: body.filename, sizeBytes: content.length, uploadedAt: now }, content);
    port.updatedAt = now;
    await tx.ports.save(port);
    return await withDocuments(tx, port);
  });
}

/**
 * POST /v1/ports/{id}/submit (contract §7): needs an `loa` and a `bill` (else 409 naming what is
 * missing); only a `draft` is submitted. The losing carrier answers 24 h later on the service clock.
 * contract §11: port 100 per number, charged when submitted (Decision), live keys only.
 */
export async function submitPort(deps: PortsDeps, actor: Actor, id: string): Promise<PortWithDocuments> {
  return await deps.uow.write(async (tx) => {
    const port = await portToChange(tx, actor, id);
    if (port.status !== 'draft') throw conflict(`only a draft port can be submitted (it is ${port.status})`);
    const documents = (await tx.ports.documentsFor([port.id])).get(port.id) ?? [];
    const missing = PORT_DOCUMENT_TYPES.filter((t) => !documents.some((d) => d.type === t));
    if (missing.length) {
      throw new ServiceError(
        'conflict',
        `the port needs ${missing.map((t) => (t === 'loa' ? 'a letter of authorization (loa)' : 'a bill')).join(' and ')} before it can be submitted; attach with POST /v1/ports/${port.id}/documents`,
        missing.map((t) => ({ path: ['documents', t], message: 'missing' })),
      );
    }
    const now = tx.clock.nowMs();
    await move(tx, port, 'submitted');
    await tx.scheduler.schedule(JOB_PORT_VERDICT, now + PORT_TIMINGS.focScheduledAfterSecs * 1000, { portId: port.id, submittedAt: now });
    // contract §11: per number at submit (live keys only); refused → 402 and the port stays a draft (same transaction).
    const count = port.phoneNumbers.length;
    await charge(tx, { accountId: port.accountId, mode: actor.mode }, { category: 'port', quantity: count, amountCents: count * PRICES.portPerNumber, ref: port.id });
    return { port, documents };
  });
}

/** POST /v1/ports/{id}/cancel (contract §7): only before the port ends (completed, rejected, canceled → 409). */
export async function cancelPort(deps: PortsDeps, actor: Actor, id: string): Promise<PortWithDocuments> {
  return await deps.uow.write(async (tx) => {
    const port = await portToChange(tx, actor, id);
    if (!CANCELABLE.has(port.status)) throw conflict(`a ${port.status} port cannot be canceled`);
    await move(tx, port, 'canceled');
    return await withDocuments(tx, port);
  });
}

// --- reads -------------------------------------------------------------------------------------------

export async function getPort(deps: Pick<PortsDeps, 'ports'>, actor: Actor, id: string): Promise<PortWithDocuments> {
  return await withDocuments(deps, await ownPort(deps, actor, id));
}

export async function listPorts(deps: Pick<PortsDeps, 'ports'>, actor: Actor, f: PortFilters, limit: number, cursor?: string): Promise<Page<PortWithDocuments>> {
  const page = await deps.ports.list(actor.account.id, f, limit, cursor);
  const docs = await deps.ports.documentsFor(page.data.map((p) => p.id));
  return { ...page, data: page.data.map((port) => ({ port, documents: docs.get(port.id) ?? [] })) };
}

// --- the losing carrier's verdict and completion -----------------------------------------------------

async function scheduleFoc(deps: PortsDeps, port: PortRecord, focDate: number): Promise<void> {
  await move(deps, port, 'foc_scheduled', { focDate });
  await deps.scheduler.schedule(JOB_PORT_COMPLETE, focDate, { portId: port.id, focDate });
}

/**
 * contract §9: the losing carrier's verdict at once, on a `submitted` port (else 409): `approved` →
 * `foc_scheduled` (FOC date `focDate`, which must be after the service clock, or
 * PORT_TIMINGS.focDateAfterSecs from now), `rejected` → `rejected` with `reason`. The 24 h verdict
 * job then does nothing.
 */
export async function sandboxPortDecision(deps: PortsDeps, actor: Actor, id: string, body: SandboxPortDecisionBody): Promise<PortWithDocuments> {
  if (body.decision === 'approved' && body.reason !== undefined) throw validationError(['body', 'reason'], 'goes with decision `rejected` only');
  if (body.decision === 'rejected' && body.focDate !== undefined) throw validationError(['body', 'focDate'], 'goes with decision `approved` only');
  return await deps.uow.write(async (tx) => {
    const port = await portToChange(tx, actor, id);
    if (port.status !== 'submitted') throw conflict(`only a submitted port can be decided (it is ${port.status})`);
    const now = tx.clock.nowMs();
    if (body.decision === 'rejected') {
      await move(tx, port, 'rejected', { rejectionReason: body.reason ?? PORT_REASONS.sandboxRejected });
    } else {
      const focDate = body.focDate === undefined ? now + PORT_TIMINGS.focDateAfterSecs * 1000 : Date.parse(body.focDate);
      if (focDate <= now) throw validationError(['body', 'focDate'], `must be after the service clock (${iso(now)})`);
      await scheduleFoc(tx, port, focDate);
    }
    return await withDocuments(tx, port);
  });
}

/**
 * contract §7: completion at the FOC date — the numbers become the account's numbers, status `idle`
 * (through the numbers domain). Should another account own one of them by now, the port is rejected
 * instead and nothing is adopted (all or nothing).
 */
async function completePort(deps: PortsDeps, port: PortRecord): Promise<void> {
  const now = deps.clock.nowMs();
  const taken: string[] = [];
  for (const n of port.phoneNumbers) if (await deps.numbers.isOwned(n)) taken.push(n);
  if (taken.length) {
    await move(deps, port, 'rejected', { rejectionReason: `${taken.join(', ')}: ${PORT_REASONS.ownedAtCompletion}` });
    return;
  }
  for (const phoneNumber of port.phoneNumbers) {
    const profile = portedNumberProfile(phoneNumber);
    // Decision: a ported number keeps everything the service offers on its type: SMS, MMS and voice.
    await adoptPortedNumber(deps, port.accountId, port.mode, { phoneNumber, ...profile, capabilities: { sms: true, mms: true, voice: true } }, now);
  }
  await move(deps, port, 'completed');
}

interface VerdictPayload {
  portId: string;
  submittedAt: number;
}
interface CompletePayload {
  portId: string;
  focDate: number;
}

/**
 * The port's clock-driven moves. Each job carries the time it belongs to: a port decided, canceled or
 * rescheduled since makes the older job a no-op.
 */
export function registerPortJobs(deps: DomainDeps): void {
  deps.scheduler.register(JOB_PORT_VERDICT, async (p: VerdictPayload, _job, tx) => {
      const port = await tx.ports.getById(p.portId);
      if (!port || port.status !== 'submitted') return;
      const verdict = losingCarrierVerdict(port);
      if (verdict.approved) await scheduleFoc(tx, port, tx.clock.nowMs() + PORT_TIMINGS.focDateAfterSecs * 1000);
      else await move(tx, port, 'rejected', { rejectionReason: verdict.reason });
    }, 'port requests decided by the losing carrier');

  deps.scheduler.register(JOB_PORT_COMPLETE, async (p: CompletePayload, _job, tx) => {
      const port = await tx.ports.getById(p.portId);
      if (!port || port.status !== 'foc_scheduled' || port.focDate !== p.focDate) return;
      await completePort(tx, port);
    }, 'ports completed');
}
