import type { ApiClient } from '../client/client.js';
import { ConversationPage, ThreadSchema, type ConversationSummary, type Thread } from '../schemas/conversations.js';
import type { Page } from '../schemas/page.js';

// conventions 7: one function per endpoint. spec: Conversation summary and thread; contract §4.

export async function listConversations(client: ApiClient, query: { limit?: number; cursor?: string } = {}): Promise<Page<ConversationSummary>> {
  return (await client.request({ method: 'GET', path: '/v1/conversations', query, schema: ConversationPage })).data;
}

/** The latest `limit` (default 50, max 200) messages with one counterparty, oldest first. */
export async function getThread(client: ApiClient, counterparty: string, query: { limit?: number } = {}): Promise<Thread> {
  // contract §4: the counterparty is E.164 with the `+` percent-encoded.
  return (await client.request({ method: 'GET', path: `/v1/conversations/${encodeURIComponent(counterparty)}`, query, schema: ThreadSchema })).data;
}
