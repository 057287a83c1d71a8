import type { ApiClient } from '../client/client.js';
import type { ConversationSummary, Thread } from '../schemas/conversations.js';
import { listEndpoint } from './list.js';
import { pathOf, type EndpointRef } from './endpoint.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function per endpoint. spec: Conversation summary and thread; contract §4.
const threadParser = responseParser('ThreadSchema');

/** GET /v1/conversations: one summary per counterparty, most recent first. */
export const conversationEndpoints = {
  thread: { method: 'GET', path: '/v1/conversations/{counterparty}' },
} as const satisfies Record<string, EndpointRef>;

export const conversationList = listEndpoint<ConversationSummary>({ path: '/v1/conversations', row: 'ConversationSummarySchema' });

/** The latest `limit` (default 50, max 200) messages with one counterparty, oldest first. */
export async function getThread(client: ApiClient, counterparty: string, query: { limit?: number } = {}): Promise<Thread> {
  // contract §4: the counterparty is E.164 with the `+` percent-encoded.
  return (await client.request({ method: 'GET', path: pathOf(conversationEndpoints.thread, { counterparty }), query, schema: threadParser })).data;
}
