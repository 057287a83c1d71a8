// The sinks family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { SinkRecord, SinkRequestRecord } from '../sinks-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// contract §10 (extension): sinks and the requests they keep (SQLite migration 22, PostgreSQL 7).

export interface SinkRow {
  id: string;
  account_id: string;
  endpoint_id: string;
  url: string;
  respond_status: number;
  fail_first: number;
  delay_ms: number;
  received: number;
  created_at: number;
}

export const toSinkRecord = (r: SinkRow): SinkRecord => ({
  id: r.id,
  accountId: r.account_id,
  endpointId: r.endpoint_id,
  url: r.url,
  respondStatus: r.respond_status,
  failFirst: r.fail_first,
  delayMs: r.delay_ms,
  received: r.received,
  createdAt: r.created_at,
});

export interface SinkRequestRow {
  sink_id: string;
  seq: number;
  id: string;
  received_at: number;
  event_id: string | null;
  event_type: string | null;
  attempt: number | null;
  headers: string;
  body: string;
  signature_valid: StoredFlag;
  answered_status: number | null;
}

export const toSinkRequestRecord = (r: SinkRequestRow): SinkRequestRecord => ({
  sinkId: r.sink_id,
  seq: r.seq,
  id: r.id,
  receivedAt: r.received_at,
  eventId: r.event_id,
  eventType: r.event_type,
  attempt: r.attempt,
  headers: JSON.parse(r.headers) as Record<string, string>,
  body: r.body,
  signatureValid: flag(r.signature_valid),
  answeredStatus: r.answered_status,
});

/** The columns of a request as both engines insert it, in order. */
export const SINK_REQUEST_COLUMNS = 'sink_id, seq, id, received_at, event_id, event_type, attempt, headers, body, signature_valid, answered_status';
