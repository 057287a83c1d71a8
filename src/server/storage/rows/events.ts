// The events table's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL. Only the feed position differs: SQLite's `seq` is it; PostgreSQL numbers an event
// after its commit (`pos`, feed-order.ts), so each engine says which column is the record's `seq`.
import type { EventRecord } from '../events-repo.js';

export interface EventRowFields {
  id: string;
  account_id: string;
  type: string;
  created_at: number;
  body: string;
}

export const toEventRecordAt = (r: EventRowFields, seq: number): EventRecord => ({
  seq,
  id: r.id,
  accountId: r.account_id,
  type: r.type,
  createdAt: r.created_at,
  body: JSON.parse(r.body) as Record<string, unknown>,
});
