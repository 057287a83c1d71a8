import { z } from 'zod';
import { E164, NullableTimestamp, Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import { BLOCK_REASON_MAX } from '../values/calls.js';

// spec: Blocked number; contract §6 (blocked numbers, the auto-suggestion rule).

export const BlockedNumberSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid().describe('the owning account'),
    phoneNumber: z.string(),
    reason: z.string().nullable(),
    autoSuggested: z.boolean().describe('suggested by the service; not enforced until a person confirms it'),
    blockedCallCount: z.number().int().min(0).describe('inbound calls rejected by this entry'),
    lastBlockedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'BlockedNumber' });
export type BlockedNumber = z.infer<typeof BlockedNumberSchema>;
export const BlockedNumberPage = pageOf(BlockedNumberSchema);

export const ListBlockedNumbersQuery = ListQuerySchema.extend({
  autoSuggested: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .describe('only suggestions (`true`) or only confirmed entries (`false`)'),
});
export type ListBlockedNumbersQuery = z.infer<typeof ListBlockedNumbersQuery>;

const Reason = z.string().max(BLOCK_REASON_MAX).nullable();

export const CreateBlockedNumberBody = z
  .strictObject({ phoneNumber: E164, reason: Reason.optional() })
  .meta({ id: 'CreateBlockedNumberBody' });
export type CreateBlockedNumberBody = z.infer<typeof CreateBlockedNumberBody>;

/** contract §6: PATCH `reason`, and `autoSuggested: false` confirms a suggestion (it cannot be set back to true). */
export const UpdateBlockedNumberBody = z
  .strictObject({
    reason: Reason.optional(),
    autoSuggested: z.literal(false).optional().describe('false confirms a suggested entry'),
  })
  .refine((b) => b.reason !== undefined || b.autoSuggested !== undefined, { message: 'give reason or autoSuggested: false' })
  .meta({ id: 'UpdateBlockedNumberBody' });
export type UpdateBlockedNumberBody = z.infer<typeof UpdateBlockedNumberBody>;
