import { z } from 'zod';
import { DisplayName, E164, NullableTimestamp, Timestamp } from './common.js';
import { ListQuerySchema, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, pageOf } from './page.js';
import { CAPABILITY_NAMES, NUMBER_STATUSES, NUMBER_TYPES } from '../values/numbers.js';
import { RouteSummarySchema } from './routes.js';

// spec: Phone number, Available number, Numbers endpoints, Toll-free verification; contract §5.

export const NUMBER_LABEL_MAX = 64; // spec: Limits, number label
export const CALLER_ID_NAME_MAX = 15; // contract §5: callerIdName 1-15 chars

export const NumberType = z.enum(NUMBER_TYPES);
export type NumberType = z.infer<typeof NumberType>;
export const NumberStatus = z.enum(NUMBER_STATUSES);
export type NumberStatus = z.infer<typeof NumberStatus>;
export const CapabilityName = z.enum(CAPABILITY_NAMES);
export const ProvisioningStatus = z.enum(['off', 'pending', 'active', 'failed']);
export type ProvisioningStatus = z.infer<typeof ProvisioningStatus>;
export const TfvStatus = z.enum(['not_applicable', 'unverified', 'pending', 'verified', 'rejected', 'action_required']);
export type TfvStatus = z.infer<typeof TfvStatus>;

export const CapabilitiesSchema = z.object({ sms: z.boolean(), mms: z.boolean(), voice: z.boolean() }).meta({ id: 'Capabilities' });

const addressFields = {
  street: z.string().trim().min(1).max(100),
  street2: z.string().trim().max(100).optional(),
  city: z.string().trim().min(1).max(60),
  state: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code'),
  zip: z.string().regex(/^\d{5}(-\d{4})?$/, 'must be a 5-digit ZIP code (or ZIP+4)'),
};
export const EmergencyAddressSchema = z
  .object({ street: z.string(), street2: z.string().optional(), city: z.string(), state: z.string(), zip: z.string() })
  .meta({ id: 'EmergencyAddress' });
export type EmergencyAddress = z.infer<typeof EmergencyAddressSchema>;

export const PhoneNumberSchema = z
  .object({
    id: z.string(),
    phoneNumber: z.string(),
    label: z.string().nullable(),
    route: RouteSummarySchema.nullable(),
    status: NumberStatus,
    type: NumberType,
    capabilities: CapabilitiesSchema,
    campaignId: z.string().nullable(),
    campaignName: z.string().nullable(),
    callerIdName: z.object({ name: z.string().nullable(), status: ProvisioningStatus }),
    emergency: z.object({ enabled: z.boolean(), address: EmergencyAddressSchema.nullable(), status: ProvisioningStatus }),
    tfvStatus: TfvStatus,
    tfvRejectionReason: z.string().nullable(),
    releasedAt: NullableTimestamp,
    // Extensions (contract: extra response fields are allowed).
    locality: z.string().nullable(),
    region: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'PhoneNumber' });
export type PhoneNumber = z.infer<typeof PhoneNumberSchema>;
export const PhoneNumberPage = pageOf(PhoneNumberSchema);

export const AvailableNumberSchema = z
  .object({
    phoneNumber: z.string(),
    type: NumberType,
    capabilities: CapabilitiesSchema,
    monthlyPriceCents: z.number().int(),
    // Extensions: where the number is (null for toll-free).
    locality: z.string().nullable(),
    region: z.string().nullable(),
  })
  .meta({ id: 'AvailableNumber' });
export type AvailableNumber = z.infer<typeof AvailableNumberSchema>;
export const AvailableNumberPage = pageOf(AvailableNumberSchema);

export const SearchNumbersBody = z
  .strictObject({
    type: NumberType.default('local'),
    areaCode: z.string().regex(/^\d{3}$/, 'must be 3 digits').optional().describe('Required when `type` is `local` (contract §5).'),
    locality: z.string().trim().min(1).max(100).optional().describe('Narrows a local search to the area codes of this city ("Austin" or "Austin, TX"); a local search still needs `areaCode`.'),
    contains: z.string().regex(/^\d{1,7}$/, 'must be 1 to 7 digits').optional(),
    capabilities: z.array(CapabilityName).max(3).optional(),
    limit: z.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  })
  // contract §5: a local search without areaCode is a validation_error. The rule lives in the domain
  // (domain/numbers.ts searchNumbers), which can name the area codes of a `locality` in the error.
  .meta({ id: 'SearchNumbersBody' });
export type SearchNumbersBody = z.infer<typeof SearchNumbersBody>;

export const BuyNumberBody = z.strictObject({ phoneNumber: E164 }).meta({ id: 'BuyNumberBody' });
export type BuyNumberBody = z.infer<typeof BuyNumberBody>;

export const EmergencyAddressInput = z.strictObject(addressFields);
export type EmergencyAddressInput = z.infer<typeof EmergencyAddressInput>;

export const UpdateNumberBody = z
  .strictObject({
    label: DisplayName(z.string().max(NUMBER_LABEL_MAX)).nullable().optional(),
    callerIdName: z
      .strictObject({
        name: z
          .string()
          .trim()
          .min(1)
          .max(CALLER_ID_NAME_MAX)
          .regex(/^[A-Za-z0-9 .,&'-]+$/, "letters, digits, spaces and . , & ' - only")
          .nullable(),
      })
      .optional(),
    emergency: z.strictObject({ enabled: z.boolean(), address: EmergencyAddressInput.optional() }).optional(),
  })
  .refine((b) => b.label !== undefined || b.callerIdName !== undefined || b.emergency !== undefined, {
    message: 'give at least one of label, callerIdName, emergency',
  })
  .meta({ id: 'UpdateNumberBody' });
export type UpdateNumberBody = z.infer<typeof UpdateNumberBody>;

export const AssignNumberBody = z
  .strictObject({ campaignId: z.string().min(1).max(200).nullable() })
  .meta({ id: 'AssignNumberBody' });
export type AssignNumberBody = z.infer<typeof AssignNumberBody>;

export const VerifyTollfreeBody = z
  .strictObject({
    businessName: z.string().trim().min(1).max(200),
    // Optional on input: a submission without a website is accepted and later rejected by the carrier.
    website: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(1000)]).nullable().optional(),
    useCase: z.string().trim().min(1).max(100),
    useCaseSummary: z.string().trim().min(1).max(1000),
    sampleMessage: z.string().trim().min(1).max(1600),
    optInWorkflow: z.string().trim().min(1).max(2000),
    monthlyVolume: z.number().int().min(1).max(1_000_000_000),
  })
  .meta({ id: 'VerifyTollfreeBody' });
export type VerifyTollfreeBody = z.infer<typeof VerifyTollfreeBody>;

export const TollfreeDecisionBody = z
  .strictObject({
    decision: z.enum(['verified', 'rejected', 'action_required']),
    reason: z.string().trim().min(1).max(500).optional(),
  })
  .meta({ id: 'TollfreeDecisionBody' });
export type TollfreeDecisionBody = z.infer<typeof TollfreeDecisionBody>;

export const ListNumbersQuery = ListQuerySchema.extend({
  status: NumberStatus.optional(),
  type: NumberType.optional(),
  campaignId: z.string().min(1).max(200).optional(),
});
export type ListNumbersQuery = z.infer<typeof ListNumbersQuery>;

/** A number id (`num_…`) or its E.164 form (percent-encode the `+` as %2B). */
export const NumberIdParams = z.strictObject({ id: z.string().min(1).max(200) });

export const SearchQuery = z.object({ format: z.enum(['array']).optional() });
