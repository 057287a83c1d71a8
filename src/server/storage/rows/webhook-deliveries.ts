// The webhook deliveries family's rows as both engines store them, and their records: one codec for
// SQLite and PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { DeliveryStatus } from '../../../api/schemas/webhooks.js';
import type { AttemptRecord, DeliveryAttemptState, DeliveryRecord, DueDelivery } from '../webhook-deliveries-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

export interface DeliveryRow {
  seq: number;
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  body: string | null;
  is_test: StoredFlag;
  max_attempts: number;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: number | null;
  attempts: string;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: DeliveryRow): DeliveryRecord => ({
  seq: r.seq,
  id: r.id,
  endpointId: r.endpoint_id,
  accountId: r.account_id,
  eventId: r.event_id,
  eventType: r.event_type,
  body: r.body,
  isTest: flag(r.is_test),
  maxAttempts: r.max_attempts,
  attempt: r.attempt,
  status: r.status,
  responseStatus: r.response_status,
  responseBody: r.response_body,
  durationMs: r.duration_ms,
  error: r.error,
  nextAttemptAt: r.next_attempt_at,
  attempts: JSON.parse(r.attempts) as AttemptRecord[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface AttemptStateRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  is_test: StoredFlag;
  max_attempts: number;
  attempt: number;
  next_attempt_at: number | null;
  raw_body: string | null;
}

export const toAttemptState = (r: AttemptStateRow): DeliveryAttemptState => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  eventType: r.event_type,
  isTest: flag(r.is_test),
  maxAttempts: r.max_attempts,
  attempt: r.attempt,
  nextAttemptAt: r.next_attempt_at,
  rawBody: r.raw_body,
});

export const toDue = (rows: Array<{ id: string; endpoint_id: string }>): DueDelivery[] => rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id }));
