import { z } from 'zod';
import { Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import { CAMPAIGN_STATUSES, CNP_SHARING_STATUSES, REGISTRATION_LIMITS } from '../values/registration.js';

// spec: Campaign (10DLC), Registration inputs (campaign create request), campaign summary; contract §7.

const Req = z.string().min(1).max(REGISTRATION_LIMITS.longText);
const OptStr = z.string().max(REGISTRATION_LIMITS.longText).nullable().optional();
const OptBool = z.boolean().nullable().optional();
export const CampaignStatus = z.enum(CAMPAIGN_STATUSES);
export const CnpSharingStatus = z.enum(CNP_SHARING_STATUSES);

/** The campaign create request's fields without `brandId` (spec: Registration inputs; also the draft's output). */
export const campaignContentShape = {
  name: z.string().min(1).max(REGISTRATION_LIMITS.shortText),
  useCase: z.string().min(1).max(REGISTRATION_LIMITS.shortText).describe('registered use case, e.g. LOW_VOLUME, MARKETING, ACCOUNT_NOTIFICATION'),
  description: Req,
  optInDetails: Req.describe('how consumers opt in: the channel and the consent language they see'),
  sampleMessages: z.array(z.string().min(1).max(REGISTRATION_LIMITS.sampleMessage)).min(1).max(REGISTRATION_LIMITS.sampleMessages),
  ctaDetails: OptStr,
  optinKeywords: OptStr,
  optinMessage: OptStr,
  optoutKeywords: OptStr,
  optoutMessage: OptStr,
  helpKeywords: OptStr,
  helpMessage: OptStr,
  privacyPolicyLink: OptStr,
  termsAndConditionsLink: OptStr,
  websiteUrl: OptStr,
  subUsecases: z.array(z.string().min(1).max(REGISTRATION_LIMITS.shortText)).max(REGISTRATION_LIMITS.subUsecases).nullable().optional(),
  subscriberOptin: OptBool,
  subscriberOptout: OptBool,
  subscriberHelp: OptBool,
  embeddedLink: OptBool,
  embeddedPhone: OptBool,
  numberPool: OptBool,
  ageGated: OptBool,
  directLending: OptBool,
  affiliateMarketing: OptBool,
  termsAndConditions: OptBool,
};

export const CampaignContentBody = z.strictObject(campaignContentShape).meta({ id: 'CampaignContent' });
export type CampaignContentBody = z.infer<typeof CampaignContentBody>;

export const CreateCampaignBody = z.strictObject({ ...campaignContentShape, brandId: z.uuid() }).meta({ id: 'CreateCampaignBody' });
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;

export const UpdateCampaignBody = CampaignContentBody.partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change' })
  .meta({ id: 'UpdateCampaignBody' });
export type UpdateCampaignBody = z.infer<typeof UpdateCampaignBody>;

const NStr = z.string().nullable();
const NBool = z.boolean().nullable();
export const CampaignSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    brandId: z.uuid(),
    name: z.string(),
    useCase: z.string(),
    status: CampaignStatus,
    tcrCampaignId: NStr,
    sampleMessages: z.array(z.string()),
    optInDetails: NStr,
    ctaDetails: NStr,
    description: NStr,
    subUsecases: z.array(z.string()).nullable(),
    subscriberOptin: NBool,
    subscriberOptout: NBool,
    subscriberHelp: NBool,
    embeddedLink: NBool,
    embeddedPhone: NBool,
    numberPool: NBool,
    ageGated: NBool,
    directLending: NBool,
    affiliateMarketing: NBool,
    termsAndConditions: NBool,
    optinKeywords: NStr,
    optinMessage: NStr,
    optoutKeywords: NStr,
    optoutMessage: NStr,
    helpKeywords: NStr,
    helpMessage: NStr,
    privacyPolicyLink: NStr,
    termsAndConditionsLink: NStr,
    websiteUrl: NStr,
    mnoMetadata: z.record(z.string(), z.unknown()).nullable(),
    cnpSharingStatus: CnpSharingStatus.nullable(),
    remediationAttempts: z.number().int().min(0),
    lastRejectionReason: NStr,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Campaign' });
export type Campaign = z.infer<typeof CampaignSchema>;

/** spec: Campaign summary — one row of the campaign list. */
export const CampaignSummarySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    useCase: z.string(),
    status: CampaignStatus,
    tcrCampaignId: NStr,
    cnpSharingStatus: CnpSharingStatus.nullable(),
    brandName: NStr,
    numbers: z.number().int().min(0),
  })
  .meta({ id: 'CampaignSummary' });
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;
export const CampaignSummaryPage = pageOf(CampaignSummarySchema);
export const ListCampaignsQuery = ListQuerySchema.extend({ status: CampaignStatus.optional(), brandId: z.uuid().optional() });

/**
 * The same content read back as a response (`POST /v1/registrations/draft`): named so the CLI parses
 * it without zod; a plain object, so a field added later is dropped, not refused (as every response).
 */
const { name: draftName, useCase: draftUseCase, sampleMessages: draftSamples, ...draftRest } = CampaignSchema.omit({
  id: true,
  tenantId: true,
  brandId: true,
  status: true,
  tcrCampaignId: true,
  mnoMetadata: true,
  cnpSharingStatus: true,
  remediationAttempts: true,
  lastRejectionReason: true,
  createdAt: true,
  updatedAt: true,
}).shape;
export const CampaignContentSchema = z
  .object({ name: draftName, useCase: draftUseCase, sampleMessages: draftSamples, ...z.object(draftRest).partial().shape })
  .meta({ id: 'CampaignDraft' });
export type CampaignDraft = z.infer<typeof CampaignContentSchema>;
