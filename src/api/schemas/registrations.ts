import { z } from 'zod';
import { BrandRegistrationBody, BrandSchema, PartialBrandBody, VERTICAL_WORDS } from './brands.js';
import { CampaignContentBody, CampaignSchema, CreateCampaignBody } from './campaigns.js';
import { PREDICTION_BANDS, REGISTRATION_LIMITS } from '../values/registration.js';

// spec: Registration inputs (combined registration, business info, approval prediction); contract §7.

/** spec: the combined registration request — both or neither (contract §7). */
export const RegistrationBody = z
  .strictObject({ brand: BrandRegistrationBody, campaign: CampaignContentBody })
  .meta({ id: 'RegistrationBody' });
export type RegistrationBody = z.infer<typeof RegistrationBody>;

/** spec: result `{ brand: Brand, campaign: Campaign }` (the brand without `complianceUrls`, as the spec says for registration responses). */
export const RegistrationSchema = z.object({ brand: BrandSchema, campaign: CampaignSchema }).meta({ id: 'Registration' });
export type Registration = z.infer<typeof RegistrationSchema>;

/** spec: Business info (drafting input). */
export const BusinessInfoBody = z
  .strictObject({
    legalName: z.string().min(1).max(REGISTRATION_LIMITS.shortText),
    description: z.string().min(1).max(REGISTRATION_LIMITS.longText),
    ein: z.string().max(REGISTRATION_LIMITS.shortText).optional(),
    website: z.string().max(REGISTRATION_LIMITS.shortText).optional(),
    vertical: z.string().max(REGISTRATION_LIMITS.shortText).optional().describe(VERTICAL_WORDS),
    optInChannel: z.string().max(REGISTRATION_LIMITS.shortText).optional().describe('how consumers opt in: e.g. web form, keyword, paper form, point of sale'),
  })
  .meta({ id: 'BusinessInfoBody' });
export type BusinessInfoBody = z.infer<typeof BusinessInfoBody>;

/**
 * contract §7: the prediction's input. Decision: every field is optional, so an unfinished campaign
 * file can be linted — a missing field fails the checks that need it instead of a validation error,
 * while a brand field given must have its format (contract §7), as on create; a `campaign.brandId`
 * without `brand` is checked against that brand of the account.
 */
export const PredictBody = z
  .strictObject({
    brand: PartialBrandBody.optional(),
    campaign: CreateCampaignBody.partial(),
  })
  .meta({ id: 'PredictBody' });
export type PredictBody = z.infer<typeof PredictBody>;

/** spec: Approval prediction; `suggestion` per check is our addition (the spec allows further fields). */
export const PredictionCheckSchema = z
  .object({
    id: z.string().describe('stable id of the rule, e.g. samples.opt_out'),
    label: z.string(),
    passed: z.boolean(),
    suggestion: z.string().nullable().describe('what to change, when the check failed'),
  })
  .meta({ id: 'PredictionCheck' });
export const PredictionSchema = z
  .object({
    score: z.number().min(0).max(100),
    band: z.enum(PREDICTION_BANDS),
    checks: z.array(PredictionCheckSchema),
    suggestions: z.array(z.string()).describe('one per failed check, in the order of the checks'),
  })
  .meta({ id: 'Prediction' });
export type Prediction = z.infer<typeof PredictionSchema>;

/** contract §9: the registry's verdict on a brand or campaign under review, at once (sandbox). */
export const RegistryDecisionBody = z
  .strictObject({
    decision: z.enum(['approved', 'rejected']),
    reason: z.string().min(1).max(REGISTRATION_LIMITS.shortText).optional().describe('the rejection reason (a default text when omitted); ignored when approved'),
  })
  .meta({ id: 'RegistryDecisionBody' });
export type RegistryDecisionBody = z.infer<typeof RegistryDecisionBody>;
