// The calls family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { CallMissedOutcome, CallStatus } from '../../../api/values/calls.js';
import type { CallDirection, StoredTraceEntry, CallRecord } from '../calls-repo.js';

// contract §6: Call. One row per call (migration 6, `mode` from migration 7). `state` is the runner's
// plain-JSON state (the call engine's for an inbound call), rewritten by every step in the
// transaction that emits the step's events; null once nothing is left to run. `trace` is the
// engine's decisions, kept as long as the call.

export interface CallRow {
  seq: number;
  id: string;
  account_id: string;
  number_id: string;
  direction: CallDirection;
  from_number: string;
  to_number: string;
  status: CallStatus;
  started_at: number;
  answered_at: number | null;
  ended_at: number | null;
  duration_seconds: number | null;
  answered_by: string | null;
  answered_device: string | null;
  outcome: CallMissedOutcome | null;
  recording_id: string | null;
  voicemail_id: string | null;
  mode: 'live' | 'test';
  origin: string | null;
  state: string | null;
  trace: string;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: CallRow): CallRecord => ({
  id: r.id,
  accountId: r.account_id,
  numberId: r.number_id,
  direction: r.direction,
  from: r.from_number,
  to: r.to_number,
  status: r.status,
  startedAt: r.started_at,
  answeredAt: r.answered_at,
  endedAt: r.ended_at,
  durationSeconds: r.duration_seconds,
  answeredBy: r.answered_by,
  answeredDevice: r.answered_device,
  outcome: r.outcome,
  recordingId: r.recording_id,
  voicemailId: r.voicemail_id,
  mode: r.mode,
  origin: r.origin,
  state: r.state === null ? null : (JSON.parse(r.state) as unknown),
  trace: JSON.parse(r.trace) as StoredTraceEntry[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
