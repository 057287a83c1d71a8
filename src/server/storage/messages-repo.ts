import type { Page } from '../../api/schemas/page.js';
import type { Media, MessageStatus } from '../../api/schemas/messages.js';

export type Direction = 'outbound' | 'inbound';

export interface MessageRecord {
  id: string;
  accountId: string;
  numberId: string | null;
  direction: Direction;
  from: string;
  to: string;
  /** The other party: `to` for outbound, `from` for inbound. */
  counterparty: string;
  body: string;
  status: MessageStatus;
  segments: number;
  channel: 'sms' | 'mms';
  media: Media[] | null;
  reason: string | null;
  test: boolean;
  providerMessageId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface MessageFilters {
  direction?: Direction;
  from?: string;
  to?: string;
  status?: MessageStatus;
}

export interface ConversationRecord {
  counterparty: string;
  lastAt: number;
  last: MessageRecord;
}

export interface MessagesRepo {
  /** Inserts the message and moves its conversation forward; call inside the sending transaction. */
  insert(m: MessageRecord): Promise<void>;
  setStatus(id: string, status: MessageStatus, reason: string | null, now: number): Promise<void>;
  setProviderMessageId(id: string, providerMessageId: string, now: number): Promise<void>;
  get(accountId: string, id: string): Promise<MessageRecord | undefined>;
  /** For durable jobs and carrier reports, which act on a message whatever the account. */
  getById(id: string): Promise<MessageRecord | undefined>;
  list(accountId: string, f: MessageFilters, limit: number, cursor?: string): Promise<Page<MessageRecord>>;
  count(accountId: string): Promise<number>;
  /** The latest `limit` messages with one counterparty, oldest first (contract §4). */
  thread(accountId: string, counterparty: string, limit: number): Promise<MessageRecord[]>;
  /**
   * Conversation summaries, newest `lastAt` first. Keyset on (last_at, last_seq): the seq of the
   * latest message is unique, so the order is total even on a frozen clock.
   */
  conversations(accountId: string, limit: number, cursor?: string): Promise<Page<ConversationRecord>>;
}

