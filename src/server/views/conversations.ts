import { iso } from '../clock.js';
import type { ConversationRecord } from '../storage/messages-repo.js';
import type { ConversationSummary } from '../../api/schemas/conversations.js';

// Records → API shapes for conversations (spec: Conversation summary; a thread is a list of
// messages: views/messages.ts). Rules for reads: views/README.md.

export const conversationView = (c: ConversationRecord): ConversationSummary => ({
  counterparty: c.counterparty,
  lastBody: c.last.body,
  lastAt: iso(c.lastAt),
  direction: c.last.direction,
  lastMessageId: c.last.id,
});
