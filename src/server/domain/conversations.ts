import type { MessagesRepo, MessageRecord, ConversationRecord } from '../storage/messages-repo.js';
import type { Page } from '../../api/schemas/page.js';
import type { Actor } from './actor.js';

// spec: Conversation summary and thread; contract §4. A conversation is every message exchanged with
// one counterparty (the `to` of an outbound, the `from` of an inbound), whichever of the account's
// numbers was used.

export interface ConversationsDeps {
  messages: MessagesRepo;
}

/** Summaries, newest `lastAt` first, keyset-paged on (lastAt, latest message). */
export async function listConversations(deps: ConversationsDeps, actor: Actor, limit: number, cursor?: string): Promise<Page<ConversationRecord>> {
  return await deps.messages.conversations(actor.account.id, limit, cursor);
}

/** The latest `limit` messages with `counterparty`, oldest first; an unknown counterparty is an empty thread. */
export async function conversationThread(deps: ConversationsDeps, actor: Actor, counterparty: string, limit: number): Promise<MessageRecord[]> {
  return await deps.messages.thread(actor.account.id, counterparty, limit);
}
