import type { DomainDeps, TxDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import { newUuid } from '../../ids.js';
import { conflict, notFound } from '../../errors.js';
import { PRICES } from '../../../api/values/prices.js';
import { CAMPAIGN_APPROVAL_SCORE, REGISTRY_TIMINGS, type CampaignStatus } from '../../../api/values/registration.js';
import type { CampaignContentBody, CreateCampaignBody, UpdateCampaignBody } from '../../../api/schemas/campaigns.js';
import type { Page } from '../../../api/schemas/page.js';
import type { BrandRecord } from '../../storage/brands-repo.js';
import type { CampaignFilters, CampaignRecord, CampaignSummaryRecord } from '../../storage/campaigns-repo.js';
import { JOB_CAMPAIGN_DCA_REVIEW, JOB_CAMPAIGN_DECISION, JOB_CNP_SHARING, type RegistrationDeps } from './deps.js';
import { tcrCampaignIdFor } from './registry-ids.js';
import { charge } from '../billing/charging.js';
import { predictApproval } from './prediction.js';
import { assertMayChange } from '../test-keys.js';

// spec: Campaign (10DLC), Campaign summary, Registration inputs; contract §7 (campaigns), §9 (sandbox
// decisions), §11 (prices).

export type CampaignDecision = { decision: 'approved' } | { decision: 'rejected'; reason: string };

/** Splits a create request's content into the record's columns and its stored content. */
function splitContent(body: CampaignContentBody): Pick<CampaignRecord, 'name' | 'useCase' | 'content'> {
  const { name, useCase, ...content } = body;
  return { name, useCase, content };
}

/**
 * Stores a campaign of `brand` (inside the caller's transaction). spec: a mock brand's campaigns are
 * mock. Decision: `cnpSharingStatus` is `none` for a real campaign and null for a mock one (which can
 * never be shared). contract §11: a non-mock campaign costs `campaignRegistration` (live keys only),
 * charged once when it is created, whether submitted now or (a registration's draft) when its brand
 * is approved.
 */
export async function insertCampaign(deps: RegistrationDeps, actor: Actor, brand: BrandRecord, body: CampaignContentBody, status: 'draft' | 'submitted'): Promise<CampaignRecord> {
  const now = deps.clock.nowMs();
  const c: CampaignRecord = {
    id: newUuid(),
    accountId: actor.account.id,
    brandId: brand.id,
    ...splitContent(body),
    status: 'draft',
    tcrCampaignId: null,
    mock: brand.mock,
    cnpSharingStatus: brand.mock ? null : 'none',
    mnoMetadata: null,
    remediationAttempts: 0,
    lastRejectionReason: null,
    mode: actor.mode,
    createdAt: now,
    updatedAt: now,
  };
  await deps.campaigns.insert(c);
  // contract §11: the campaign fee (live keys only); refused → 402 and no campaign (the caller's transaction rolls back).
  if (!c.mock) await charge(deps, { accountId: actor.account.id, mode: actor.mode }, { category: 'campaign_registration', quantity: 1, amountCents: PRICES.campaignRegistration, ref: c.id });
  if (status === 'submitted') await submit(deps, c, brand);
  return c;
}

/** contract §7: `POST /v1/campaigns` → 201 `submitted`; the brand must be `approved`, else 409. */
export async function createCampaign(deps: RegistrationDeps, actor: Actor, body: CreateCampaignBody): Promise<CampaignRecord> {
  return await deps.uow.write(async (tx) => {
    const { brandId, ...content } = body;
    const brand = await tx.brands.get(actor.account.id, brandId);
    if (!brand) throw notFound('brand');
    if (brand.status !== 'approved') throw conflict(`brand ${brand.id} is ${brand.status}, not approved: campaigns are registered under approved brands`);
    return await insertCampaign(tx, actor, brand, content, 'submitted');
  });
}

/** The actor's campaign, or 404 (another account's campaign is not found either). */
export async function getCampaign(deps: Pick<RegistrationDeps, 'campaigns'>, actor: Actor, id: string): Promise<CampaignRecord> {
  const c = await deps.campaigns.get(actor.account.id, id);
  if (!c) throw notFound('campaign');
  return c;
}

/** spec: Campaign summary — the list's rows, newest first. */
/** contract §2: a campaign registered with a live key (its fees live money, live numbers on it) is a live key's to change. */
async function campaignToChange(deps: Pick<RegistrationDeps, 'campaigns'>, actor: Actor, id: string): Promise<CampaignRecord> {
  const c = await getCampaign(deps, actor, id);
  assertMayChange(actor, c.mode, 'this campaign');
  return c;
}

export async function listCampaigns(deps: Pick<RegistrationDeps, 'campaigns'>, actor: Actor, f: CampaignFilters, limit: number, cursor?: string): Promise<Page<CampaignSummaryRecord>> {
  return await deps.campaigns.listSummaries(actor.account.id, f, limit, cursor);
}

/** Decision: a campaign can be edited while nobody reviews it and it is not registered: `draft` and `rejected`. */
const EDITABLE: readonly CampaignStatus[] = ['draft', 'rejected'];

/** `PATCH /v1/campaigns/{id}`: only a `draft` or `rejected` campaign (else 409); a resubmit sends the edit. */
export async function updateCampaign(deps: RegistrationDeps, actor: Actor, id: string, body: UpdateCampaignBody): Promise<CampaignRecord> {
  return await deps.uow.write(async (tx) => {
    const c = await campaignToChange(tx, actor, id);
    if (!EDITABLE.includes(c.status)) throw conflict(`campaign ${c.id} is ${c.status}: only a draft or rejected campaign can be changed`);
    const { name, useCase, ...content } = body;
    if (name !== undefined) c.name = name;
    if (useCase !== undefined) c.useCase = useCase;
    const defined = Object.fromEntries(Object.entries(content).filter(([, v]) => v !== undefined));
    c.content = { ...c.content, ...defined };
    c.updatedAt = tx.clock.nowMs();
    await tx.campaigns.save(c);
    return c;
  });
}

/** contract §7: only a `rejected` campaign is resubmitted; `remediationAttempts` counts it; → `submitted`. */
export async function resubmitCampaign(deps: RegistrationDeps, actor: Actor, id: string): Promise<CampaignRecord> {
  return await deps.uow.write(async (tx) => {
    const c = await campaignToChange(tx, actor, id);
    if (c.status !== 'rejected') throw conflict(`only a rejected campaign can be resubmitted (campaign ${c.id} is ${c.status})`);
    c.remediationAttempts += 1;
    await submit(tx, c, await brandOf(tx, c));
    return c;
  });
}

const brandOf = async (deps: Pick<RegistrationDeps, 'brands'>, c: CampaignRecord): Promise<BrandRecord> => {
  const b = await deps.brands.getById(c.brandId);
  if (!b) throw notFound('brand');
  return b;
};

/**
 * Sends a campaign to the registry (inside the caller's transaction). contract §7: `submitted`, to
 * `dca_review` 1 h later, decided 24 h after that. Decision: a mock campaign follows its mock brand's
 * speed — decided at once, by the same rule.
 */
async function submit(deps: RegistrationDeps, c: CampaignRecord, brand: BrandRecord): Promise<void> {
  const now = deps.clock.nowMs();
  c.status = 'submitted';
  c.lastRejectionReason = null;
  c.updatedAt = now;
  await deps.campaigns.save(c);
  if (c.mock) {
    await decide(deps, c, campaignVerdict(brand, c));
    return;
  }
  await deps.scheduler.schedule(JOB_CAMPAIGN_DCA_REVIEW, now + REGISTRY_TIMINGS.campaignDcaReviewSecs * 1000, { campaignId: c.id, attempt: c.remediationAttempts });
}

/** contract §7: a registration's draft campaigns are submitted by themselves when their brand is approved. */
export async function submitDraftCampaigns(deps: RegistrationDeps, brand: BrandRecord): Promise<void> {
  for (const c of await deps.campaigns.listForBrand(brand.id, 'draft')) await submit(deps, c, brand);
}

/** What the approval prediction reads of a stored brand and campaign. */
function predictionInputOf(brand: BrandRecord | undefined, c: CampaignRecord) {
  return {
    brand: brand ? { legalName: brand.legalName, entityType: brand.entityType, ...brand.fields } : null,
    campaign: { name: c.name, useCase: c.useCase, ...c.content } as Partial<CampaignContentBody>,
  };
}

/**
 * contract §7: the registry approves a campaign whose approval prediction scores at least
 * CAMPAIGN_APPROVAL_SCORE; otherwise it rejects it, the reason built from the failed checks. The one
 * place the decision is taken (the clock, a mock campaign's instant decision).
 */
export function campaignVerdict(brand: BrandRecord | undefined, c: CampaignRecord): CampaignDecision {
  const p = predictApproval(predictionInputOf(brand, c) as Parameters<typeof predictApproval>[0]);
  if (p.score >= CAMPAIGN_APPROVAL_SCORE) return { decision: 'approved' };
  const failed = p.checks.filter((k) => !k.passed).map((k) => (k.suggestion ? `${k.label} (${k.suggestion})` : k.label));
  return { decision: 'rejected', reason: `approval score ${p.score} is below ${CAMPAIGN_APPROVAL_SCORE}; failed checks: ${failed.join('; ')}` };
}

/**
 * Decision (spec: mnoMetadata's inner shape is not shown): per carrier, whether it approved the
 * campaign and its throughput — messages per minute for AT&T, a daily cap for T-Mobile.
 */
const approvedMnoMetadata = () => ({
  ATT: { approved: true, tpm: 75, messageClass: 'E' },
  TMOBILE: { approved: true, dailyCap: 2000, brandTier: 'LOW' },
  VERIZON: { approved: true },
});

/** Applies the registry's decision (inside the caller's transaction). Approved: a `tcrCampaignId` and carrier details. */
async function decide(deps: RegistrationDeps, c: CampaignRecord, d: CampaignDecision): Promise<void> {
  c.status = d.decision;
  if (d.decision === 'approved') {
    c.tcrCampaignId = tcrCampaignIdFor(c.id);
    c.mnoMetadata = approvedMnoMetadata();
    c.lastRejectionReason = null;
  } else {
    c.lastRejectionReason = d.reason;
  }
  c.updatedAt = deps.clock.nowMs();
  await deps.campaigns.save(c);
}

/** contract §9: the registry's verdict at once, for a campaign under review (`submitted` or `dca_review`; else 409). */
export async function sandboxCampaignDecision(
  deps: RegistrationDeps,
  actor: Actor,
  id: string,
  body: { decision: 'approved' | 'rejected'; reason?: string },
): Promise<CampaignRecord> {
  return await deps.uow.write(async (tx) => {
    const c = await campaignToChange(tx, actor, id);
    if (c.status !== 'submitted' && c.status !== 'dca_review') {
      throw conflict(`only a submitted or dca_review campaign can be decided (campaign ${c.id} is ${c.status})`);
    }
    await decide(tx, c, body.decision === 'approved' ? { decision: 'approved' } : { decision: 'rejected', reason: body.reason ?? 'rejected by the registry' });
    return c;
  });
}

/**
 * spec: Campaign — `cnpSharingStatus`; Registration inputs — a mock brand's campaigns "cannot be
 * shared". Decision (the spec shows no sharing endpoint): `POST /v1/campaigns/{id}/share` offers an
 * approved, real campaign to the connectivity partner (`none` or `declined` → `pending`), who accepts
 * it 1 h later on the service clock (`accepted`). A mock campaign, one not approved, or one already
 * pending or accepted is a 409 conflict.
 */
export async function shareCampaign(deps: RegistrationDeps, actor: Actor, id: string): Promise<CampaignRecord> {
  return await deps.uow.write(async (tx) => {
    const c = await campaignToChange(tx, actor, id);
    if (c.mock) throw conflict(`campaign ${c.id} is a mock campaign: mock campaigns cannot be shared`);
    if (c.status !== 'approved') throw conflict(`only an approved campaign can be shared (campaign ${c.id} is ${c.status})`);
    if (c.cnpSharingStatus === 'pending' || c.cnpSharingStatus === 'accepted') throw conflict(`campaign ${c.id} sharing is already ${c.cnpSharingStatus}`);
    const now = tx.clock.nowMs();
    c.cnpSharingStatus = 'pending';
    c.updatedAt = now;
    await tx.campaigns.save(c);
    await tx.scheduler.schedule(JOB_CNP_SHARING, now + REGISTRY_TIMINGS.cnpSharingDecisionSecs * 1000, { campaignId: c.id });
    return c;
  });
}

type ReviewPayload = { campaignId: string; attempt: number };

/** The registry's jobs: `dca_review` 1 h after a submission, the decision 24 h later; stale submissions are left alone. */
export function registerCampaignJobs(deps: DomainDeps): void {
  const current = async (tx: TxDeps, p: ReviewPayload, status: CampaignStatus): Promise<CampaignRecord | undefined> => {
    const c = await tx.campaigns.getById(p.campaignId);
    return c && c.status === status && c.remediationAttempts === p.attempt ? c : undefined;
  };
  deps.scheduler.register(
    JOB_CAMPAIGN_DCA_REVIEW,
    async (p: ReviewPayload, _job, tx) => {
        const c = await current(tx, p, 'submitted');
        if (!c) return;
        c.status = 'dca_review';
        c.updatedAt = tx.clock.nowMs();
        await tx.campaigns.save(c);
        await tx.scheduler.schedule(JOB_CAMPAIGN_DECISION, c.updatedAt + REGISTRY_TIMINGS.campaignDecisionSecs * 1000, p);
      },
    'campaigns moved to DCA review',
  );
  deps.scheduler.register(
    JOB_CAMPAIGN_DECISION,
    async (p: ReviewPayload, _job, tx) => {
        const c = await current(tx, p, 'dca_review');
        if (c) await decide(tx, c, campaignVerdict(await tx.brands.getById(c.brandId), c));
      },
    'campaign registry decisions',
  );
  deps.scheduler.register(
    JOB_CNP_SHARING,
    async (p: { campaignId: string }, _job, tx) => {
        const c = await tx.campaigns.getById(p.campaignId);
        if (!c || c.cnpSharingStatus !== 'pending') return;
        c.cnpSharingStatus = 'accepted';
        c.updatedAt = tx.clock.nowMs();
        await tx.campaigns.save(c);
      },
    'campaign sharing answers',
  );
}
