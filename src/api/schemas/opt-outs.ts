import { z } from 'zod';
import { Timestamp } from './common.js';
import { E164Lenient } from './messages.js';
import { ListQuerySchema, pageOf } from './page.js';

// contract §4, "Opt-out keywords": a consumer who texted a stop word to one of the account's numbers.

export const OptOutSchema = z
  .object({
    id: z.string(),
    numberId: z.string().nullable().describe('the number opted out of (null for the test sender +15005550006)'),
    from: z.string().describe("the account's number the consumer opted out of"),
    phoneNumber: z.string().describe('the consumer who opted out'),
    keyword: z.string().describe('the word the consumer texted, upper case (a stop word or one of the campaign\'s optoutKeywords)'),
    createdAt: Timestamp,
  })
  .meta({ id: 'OptOut' });
export type OptOut = z.infer<typeof OptOutSchema>;
export const OptOutPage = pageOf(OptOutSchema);

export const ListOptOutsQuery = ListQuerySchema.extend({
  from: E164Lenient.optional().describe("only opt-outs of this number of the account (E.164, `+` as `%2B`)"),
  phoneNumber: E164Lenient.optional().describe('only opt-outs by this consumer (E.164, `+` as `%2B`)'),
});
export type ListOptOutsQuery = z.infer<typeof ListOptOutsQuery>;
