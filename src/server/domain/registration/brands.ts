import type { DomainDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import { newUuid } from '../../ids.js';
import { conflict, notFound, ServiceError, validationError } from '../../errors.js';
import { PRICES } from '../../../api/values/prices.js';
import { EIN_REQUIRED_ENTITY_TYPES, REGISTRY_TIMINGS, type IDENTITY_STATUSES } from '../../../api/values/registration.js';
import { usAddressProblems } from '../../../api/values/brand-formats.js';
import type { BrandRegistrationBody, UpdateBrandBody, VettingBody } from '../../../api/schemas/brands.js';
import type { Page } from '../../../api/schemas/page.js';
import { BRAND_TEXT_FIELDS, type BrandFields, type BrandFilters, type BrandRecord } from '../../storage/brands-repo.js';
import { JOB_BRAND_DECISION, type RegistrationDeps } from './deps.js';
import { tcrBrandIdFor } from './registry-ids.js';
import { charge } from '../billing/charging.js';
import { submitDraftCampaigns } from './campaigns.js';
import { logoUrlProblem } from './logo-url.js';
import { assertMayChange } from '../test-keys.js';

// spec: Brand (10DLC), Registration inputs; contract §7 (brands), §9 (sandbox decisions), §11 (prices).

type IdentityStatus = (typeof IDENTITY_STATUSES)[number];
export type RegistryDecision = { decision: 'approved' } | { decision: 'rejected'; reason: string };

/** The registration request's optional strings, as stored (absent = null). */
function fieldsOf(body: Partial<BrandRegistrationBody>): BrandFields {
  const fields: BrandFields = {};
  for (const k of BRAND_TEXT_FIELDS) if (body[k] !== undefined) fields[k] = body[k] ?? null;
  return fields;
}

/**
 * Builds and stores a brand (inside the caller's transaction). contract §7: a registered brand is
 * `submitted` and decided 1 h later; a mock brand is `approved` at once with a `tcrBrandId`, no
 * charge and no vetting. contract §11: a non-mock brand costs `brandRegistration` (live keys only).
 */
export async function insertBrand(deps: RegistrationDeps, actor: Actor, body: BrandRegistrationBody): Promise<BrandRecord> {
  const now = deps.clock.nowMs();
  const mock = body.mock === true;
  const id = newUuid();
  const brand: BrandRecord = {
    id,
    accountId: actor.account.id,
    legalName: body.legalName,
    status: mock ? 'approved' : 'submitted',
    mock,
    entityType: body.entityType ?? null,
    fields: fieldsOf(body),
    tcrBrandId: mock ? tcrBrandIdFor(id) : null,
    // Decision: a mock brand is never checked by the registry, so its identity stays self-declared.
    identityStatus: mock ? 'SELF_DECLARED' : null,
    vettingProvider: null,
    vettingClass: null,
    vettingScore: null,
    carrierSuspended: null,
    compliancePages: null,
    pageConfig: null,
    rejectionReason: null,
    submittedAt: mock ? null : now,
    mode: actor.mode,
    createdAt: now,
    updatedAt: now,
  };
  await deps.brands.insert(brand);
  if (!mock) {
    // contract §11: the registration fee (live keys only; a refusal → 402 and no brand, the caller's transaction rolls back).
    await charge(deps, { accountId: actor.account.id, mode: actor.mode }, { category: 'brand_registration', quantity: 1, amountCents: PRICES.brandRegistration, ref: id });
    await scheduleDecision(deps, brand);
  }
  return brand;
}

async function scheduleDecision(deps: RegistrationDeps, brand: BrandRecord): Promise<void> {
  await deps.scheduler.schedule(JOB_BRAND_DECISION, brand.submittedAt! + REGISTRY_TIMINGS.brandDecisionSecs * 1000, {
    brandId: brand.id,
    submittedAt: brand.submittedAt,
  });
}

/** contract §7: `POST /v1/brands` → 201, `submitted` (`approved` at once for a mock brand). */
export async function createBrand(deps: RegistrationDeps, actor: Actor, body: BrandRegistrationBody): Promise<BrandRecord> {
  return await deps.uow.write(async (tx) => await insertBrand(tx, actor, body));
}

/** The actor's brand, or 404 (another account's brand is not found either). */
export async function getBrand(deps: Pick<RegistrationDeps, 'brands'>, actor: Actor, id: string): Promise<BrandRecord> {
  const b = await deps.brands.get(actor.account.id, id);
  if (!b) throw notFound('brand');
  return b;
}

/**
 * Any brand by id, for the public hosted pages (`/p/{brandId}/…`, contract §7), which have no caller.
 * Undefined when there is none.
 */
/** contract §2: a brand registered with a live key (its fees live money) is a live key's to change, resubmit, vet or decide. */
async function brandToChange(deps: Pick<RegistrationDeps, 'brands'>, actor: Actor, id: string): Promise<BrandRecord> {
  const b = await getBrand(deps, actor, id);
  assertMayChange(actor, b.mode, 'this brand');
  return b;
}

export async function getPublic(deps: Pick<RegistrationDeps, 'brands'>, id: string): Promise<BrandRecord | undefined> {
  return await deps.brands.getById(id);
}

/** spec: Brand — a page envelope, newest first. */
export async function listBrands(deps: Pick<RegistrationDeps, 'brands'>, actor: Actor, f: BrandFilters, limit: number, cursor?: string): Promise<Page<BrandRecord>> {
  return await deps.brands.list(actor.account.id, f, limit, cursor);
}

/** The hosted pages' fields may change in any status; these are what the registry reviews. */
const REVIEWED_FIELDS = ['legalName', 'entityType', ...BRAND_TEXT_FIELDS] as const;

/**
 * spec: Endpoints — `PATCH /v1/brands/{id}` updates a brand, including the design of the hosted opt-in
 * page. Decision: `pageConfig` and `compliancePages` may change in any status (they are our pages, not
 * the registry's record); the fields the registry reviews change only while the brand is `draft` or
 * `rejected` (to fix it before a resubmit), else 409. `compliancePages: null` returns to the texts
 * generated from the brand.
 */
export async function updateBrand(deps: RegistrationDeps, actor: Actor, id: string, body: UpdateBrandBody): Promise<BrandRecord> {
  return await deps.uow.write(async (tx) => {
    const b = await brandToChange(tx, actor, id);
    const reviewed = REVIEWED_FIELDS.filter((k) => body[k] !== undefined);
    if (reviewed.length && b.status !== 'draft' && b.status !== 'rejected') {
      throw conflict(`brand ${b.id} is ${b.status}: ${reviewed.join(', ')} can change only while it is draft or rejected`);
    }
    if (body.legalName !== undefined) b.legalName = body.legalName;
    if (body.entityType !== undefined) b.entityType = body.entityType;
    b.fields = { ...b.fields, ...fieldsOf(body) };
    if (body.pageConfig?.logoUrl) assertLogoUrl(body.pageConfig.logoUrl);
    assertUsAddress(b.fields);
    if (body.pageConfig !== undefined) b.pageConfig = body.pageConfig;
    if (body.compliancePages !== undefined) b.compliancePages = body.compliancePages;
    b.updatedAt = tx.clock.nowMs();
    await tx.brands.save(b);
    return b;
  });
}

/** The logo URL is refused when saved (logo-url.ts), not only dropped when a page renders. */
function assertLogoUrl(raw: string): void {
  const problem = logoUrlProblem(raw);
  if (problem) throw validationError(['body', 'pageConfig', 'logoUrl'], problem);
}

/**
 * contract §7: `state` and `postalCode` when `country` is `US`, on the brand as the change leaves it
 * (a PATCH may give the state of a brand whose country it does not repeat); every problem at once,
 * before anything is saved.
 */
function assertUsAddress(fields: BrandFields): void {
  const problems = usAddressProblems(fields);
  if (problems.length === 0) return;
  const details = problems.map((p) => ({ path: ['body', p.field], message: p.message }));
  throw new ServiceError('validation_error', details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; '), details);
}

/** contract §7: only a `rejected` brand can be resubmitted (else 409); the registry decides 1 h later. Decision: no new charge. */
export async function resubmitBrand(deps: RegistrationDeps, actor: Actor, id: string): Promise<BrandRecord> {
  return await deps.uow.write(async (tx) => {
    const b = await brandToChange(tx, actor, id);
    if (b.status !== 'rejected') throw conflict(`only a rejected brand can be resubmitted (brand ${b.id} is ${b.status})`);
    const now = tx.clock.nowMs();
    b.status = 'submitted';
    b.rejectionReason = null;
    b.identityStatus = null;
    b.submittedAt = now;
    b.updatedAt = now;
    await tx.brands.save(b);
    await scheduleDecision(tx, b);
    return b;
  });
}

/**
 * Decision (contract §7 names the fields, not the score): the vetting partner's score grows with what
 * the brand proves about itself — 40, plus 5 per registration field given (an EIN, an address, a
 * stock listing…), plus 10 for enhanced vetting, at most 100. The same brand always scores the same.
 */
export function vettingScoreOf(b: BrandRecord, vettingClass: VettingBody['vettingClass']): number {
  const given = BRAND_TEXT_FIELDS.filter((k) => typeof b.fields[k] === 'string' && b.fields[k]!.length > 0).length + (b.entityType ? 1 : 0);
  return Math.min(100, 40 + 5 * given + (vettingClass === 'ENHANCED' ? 10 : 0));
}

/**
 * contract §7: external vetting of an approved, non-mock brand (spec: a mock brand has "no vetting").
 * Decision: a mock brand, or a brand not approved, is a 409 conflict (the brand's state forbids it,
 * like every other state rule here). contract §11: `brandVetting`, live keys only.
 */
export async function vetBrand(deps: RegistrationDeps, actor: Actor, id: string, body: VettingBody): Promise<BrandRecord> {
  return await deps.uow.write(async (tx) => {
    const b = await brandToChange(tx, actor, id);
    if (b.mock) throw conflict(`brand ${b.id} is a mock brand: mock brands are not vetted`);
    if (b.status !== 'approved') throw conflict(`only an approved brand can be vetted (brand ${b.id} is ${b.status})`);
    const now = tx.clock.nowMs();
    b.vettingProvider = body.provider;
    b.vettingClass = body.vettingClass;
    b.vettingScore = vettingScoreOf(b, body.vettingClass);
    b.identityStatus = 'VETTED_VERIFIED';
    b.updatedAt = now;
    await tx.brands.save(b);
    // contract §11: the vetting fee (live keys only); refused → 402 and the brand stays unvetted (same transaction).
    await charge(tx, { accountId: actor.account.id, mode: actor.mode }, { category: 'brand_vetting', quantity: 1, amountCents: PRICES.brandVetting, ref: b.id });
    return b;
  });
}

/**
 * contract §7: the registry's rule — `PRIVATE_PROFIT`/`PUBLIC_PROFIT` without an `ein` is rejected;
 * everything else is approved.
 */
export function registryBrandVerdict(b: BrandRecord): RegistryDecision {
  if (b.entityType && EIN_REQUIRED_ENTITY_TYPES.includes(b.entityType) && !b.fields.ein) {
    return { decision: 'rejected', reason: `an EIN is required for entity type ${b.entityType}` };
  }
  return { decision: 'approved' };
}

/**
 * Applies the registry's decision to a submitted brand (inside the caller's transaction). Approved:
 * a `tcrBrandId`, identity `VERIFIED`, and its draft campaigns (from a combined registration) are
 * submitted (contract §7). Rejected: the reason, identity `UNVERIFIED`; its drafts stay drafts.
 */
async function decide(deps: RegistrationDeps, b: BrandRecord, d: RegistryDecision): Promise<void> {
  const now = deps.clock.nowMs();
  const identity: IdentityStatus = d.decision === 'approved' ? 'VERIFIED' : 'UNVERIFIED';
  b.status = d.decision;
  b.identityStatus = identity;
  b.rejectionReason = d.decision === 'rejected' ? d.reason : null;
  if (d.decision === 'approved') b.tcrBrandId = tcrBrandIdFor(b.id);
  b.updatedAt = now;
  await deps.brands.save(b);
  if (d.decision === 'approved') await submitDraftCampaigns(deps, b);
}

/** contract §9: the registry's verdict at once, for a `submitted` brand (else 409). */
export async function sandboxBrandDecision(
  deps: RegistrationDeps,
  actor: Actor,
  id: string,
  body: { decision: 'approved' | 'rejected'; reason?: string },
): Promise<BrandRecord> {
  return await deps.uow.write(async (tx) => {
    const b = await brandToChange(tx, actor, id);
    if (b.status !== 'submitted') throw conflict(`only a submitted brand can be decided (brand ${b.id} is ${b.status})`);
    await decide(tx, b, body.decision === 'approved' ? { decision: 'approved' } : { decision: 'rejected', reason: body.reason ?? 'rejected by the registry' });
    return b;
  });
}

/** The registry's decision job: runs 1 h after a submission; a brand decided or resubmitted since is left alone. */
export function registerBrandJobs(deps: DomainDeps): void {
  deps.scheduler.register(
    JOB_BRAND_DECISION,
    async (p: { brandId: string; submittedAt: number }, _job, tx) => {
        const b = await tx.brands.getById(p.brandId);
        if (!b || b.status !== 'submitted' || b.submittedAt !== p.submittedAt) return;
        await decide(tx, b, registryBrandVerdict(b));
      },
    'brand registry decisions',
  );
}

// --- the hosted pages' default texts ----------------------------------------------------------------

/**
 * The texts of the hosted pages when the brand has set none (spec: Brand — `compliancePages`), so the
 * pages always have content: opt-in consent language, a privacy policy and messaging terms, written
 * from the brand's own name, website and contacts. The hosted pages and the API both show these.
 */
export function defaultCompliancePages(b: Pick<BrandRecord, 'legalName' | 'fields'>): { optIn: string; privacy: string; messagingTerms: string } {
  const name = b.fields.displayName || b.legalName;
  const contact = [b.fields.email, b.fields.phone].filter(Boolean).join(' or ');
  const reach = contact ? ` Questions: ${contact}.` : '';
  const site = b.fields.website ? ` More at ${b.fields.website}.` : '';
  return {
    optIn:
      `By checking this box, I agree to receive recurring text messages from ${name} at the number provided. ` +
      'Consent is not a condition of purchase. Message frequency varies. Message and data rates may apply. ' +
      'Reply STOP to opt out at any time, HELP for help.',
    privacy:
      `${b.legalName} collects your name, phone number and email address when you sign up for text messages, and uses them only to send the messages you asked for. ` +
      'Mobile information will not be shared with third parties or affiliates for marketing or promotional purposes. ' +
      'Text messaging originator opt-in data and consent will not be shared with any third parties.' +
      site + reach,
    messagingTerms:
      `${name} text messages: you will receive the messages you signed up for. Message frequency varies. ` +
      'Message and data rates may apply. Reply STOP to cancel at any time; you will receive one confirmation message. ' +
      'Reply HELP for help. Carriers are not liable for delayed or undelivered messages.' +
      reach,
  };
}

/** The texts the hosted pages show: the brand's own, or the generated defaults. */
export const compliancePagesOf = (b: BrandRecord): { optIn: string; privacy: string; messagingTerms: string } =>
  b.compliancePages ?? defaultCompliancePages(b);
