// The messages family's rows as both engines store them, and their records: one codec for SQLite
// and PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { Media, MessageStatus } from '../../../api/schemas/messages.js';
import type { Direction, MessageRecord } from '../messages-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

export interface MessageRow {
  seq: number;
  id: string;
  account_id: string;
  number_id: string | null;
  direction: Direction;
  from_number: string;
  to_number: string;
  counterparty: string;
  body: string;
  status: MessageStatus;
  segments: number;
  channel: 'sms' | 'mms';
  media: string | null;
  reason: string | null;
  test: StoredFlag;
  provider_message_id: string | null;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: MessageRow): MessageRecord => ({
  id: r.id,
  accountId: r.account_id,
  numberId: r.number_id,
  direction: r.direction,
  from: r.from_number,
  to: r.to_number,
  counterparty: r.counterparty,
  body: r.body,
  status: r.status,
  segments: r.segments,
  channel: r.channel,
  media: r.media === null ? null : (JSON.parse(r.media) as Media[]),
  reason: r.reason,
  test: flag(r.test),
  providerMessageId: r.provider_message_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
