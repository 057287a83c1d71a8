import type { MessagesRepo, MessageRecord, ConversationRecord } from '../storage/messages-repo.js';
import type { Page } from '../../api/schemas/page.js';

// spec: Conversation summary and thread; contract §4. A conversation is every message exchanged with
// one counterparty (the `to` of an outbound, the `from` of an inbound), whichever of the account's
// numbers was used.

/** Summaries, newest `lastAt` first, keyset-paged on (lastAt, latest message). */
export function listConversations(deps: { messages: MessagesRepo }, accountId: string, limit: number, cursor?: string): Page<ConversationRecord> {
  return deps.messages.conversations(accountId, limit, cursor);
}

/** The latest `limit` messages with `counterparty`, oldest first; an unknown counterparty is an empty thread. */
export function conversationThread(deps: { messages: MessagesRepo }, accountId: string, counterparty: string, limit: number): MessageRecord[] {
  return deps.messages.thread(accountId, counterparty, limit);
}
