import { z } from 'zod';
import { DisplayName, Timestamp } from './common.js';
import { pageOf } from './page.js';

// contract §3: sub-accounts; ids are their tenant uuid.
export const SubaccountStatus = z.enum(['active', 'suspended']);

export const SubaccountSchema = z
  .object({ id: z.uuid(), name: z.string(), status: SubaccountStatus, createdAt: Timestamp })
  .meta({ id: 'Subaccount' });
export type Subaccount = z.infer<typeof SubaccountSchema>;

export const CreateSubaccountBody = z.strictObject({ name: DisplayName(z.string().trim().min(1).max(100)) });
export const UpdateSubaccountBody = z
  .strictObject({ name: DisplayName(z.string().trim().min(1).max(100)).optional(), status: SubaccountStatus.optional() })
  .refine((b) => b.name !== undefined || b.status !== undefined, { message: 'give name or status' });
export type UpdateSubaccountBody = z.infer<typeof UpdateSubaccountBody>;

export const SubaccountPage = pageOf(SubaccountSchema);

export const AgencySummarySchema = z
  .object({
    subaccounts: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        status: SubaccountStatus,
        numbers: z.number().int(),
        messagesThisMonth: z.number().int(),
        spendThisMonthCents: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'AgencySummary' });
export type AgencySummary = z.infer<typeof AgencySummarySchema>;
