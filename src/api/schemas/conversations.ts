import { z } from 'zod';
import { Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import { E164Lenient, MessageDirection, MessageSchema } from './messages.js';

// spec: Conversation summary and thread; contract §4.

export const ConversationSummarySchema = z
  .object({
    counterparty: z.string(),
    lastBody: z.string(),
    lastAt: Timestamp,
    direction: MessageDirection,
    // Extension: the id of the latest message.
    lastMessageId: z.string(),
  })
  .meta({ id: 'ConversationSummary' });
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;
export const ConversationPage = pageOf(ConversationSummarySchema);

export const ListConversationsQuery = ListQuerySchema;

// contract §4: the latest `limit` (default 50, max 200) messages of a thread.
import { THREAD_LIMIT_DEFAULT, THREAD_LIMIT_MAX } from '../values/conversations.js';
export { THREAD_LIMIT_DEFAULT, THREAD_LIMIT_MAX };

export const ThreadQuery = z.object({
  limit: z.coerce.number().int().min(1).max(THREAD_LIMIT_MAX).default(THREAD_LIMIT_DEFAULT),
});
export type ThreadQuery = z.infer<typeof ThreadQuery>;

export const ThreadParams = z.strictObject({ counterparty: E164Lenient });

export const ThreadSchema = z.object({ data: z.array(MessageSchema) }).meta({ id: 'ConversationThread' });
export type Thread = z.infer<typeof ThreadSchema>;
