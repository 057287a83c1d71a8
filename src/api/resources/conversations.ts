import type { ApiClient } from '../client/client.js';
import { ConversationSummarySchema, ThreadSchema, type ConversationSummary, type Thread } from '../schemas/conversations.js';
import { listEndpoint } from './list.js';

// conventions 7: one function per endpoint. spec: Conversation summary and thread; contract §4.

/** GET /v1/conversations: one summary per counterparty, most recent first. */
export const conversationList = listEndpoint<ConversationSummary>({ path: '/v1/conversations', itemSchema: ConversationSummarySchema });

/** The latest `limit` (default 50, max 200) messages with one counterparty, oldest first. */
export async function getThread(client: ApiClient, counterparty: string, query: { limit?: number } = {}): Promise<Thread> {
  // contract §4: the counterparty is E.164 with the `+` percent-encoded.
  return (await client.request({ method: 'GET', path: `/v1/conversations/${encodeURIComponent(counterparty)}`, query, schema: ThreadSchema })).data;
}
