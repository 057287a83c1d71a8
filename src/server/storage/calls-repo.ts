import type { Page } from '../../api/schemas/page.js';
import type { CallMissedOutcome, CallStatus } from '../../api/values/calls.js';

// contract §6: Call. One row per call (migration 6, `mode` from migration 7). `state` is the runner's
// plain-JSON state (the call engine's for an inbound call), rewritten by every step in the
// transaction that emits the step's events; null once nothing is left to run. `trace` is the
// engine's decisions, kept as long as the call.

export type CallDirection = 'inbound' | 'outbound';

/** contract §6 (call trace): `at` in service-clock ms. */
export interface StoredTraceEntry {
  at: number;
  step: string;
  detail: string;
}

export interface CallRecord {
  id: string;
  accountId: string;
  numberId: string;
  direction: CallDirection;
  from: string;
  to: string;
  status: CallStatus;
  startedAt: number;
  answeredAt: number | null;
  endedAt: number | null;
  durationSeconds: number | null;
  answeredBy: string | null;
  answeredDevice: string | null;
  outcome: CallMissedOutcome | null;
  recordingId: string | null;
  voicemailId: string | null;
  /** The mode of the key that placed the call: usage is charged for live calls only (contract §11). */
  mode: 'live' | 'test';
  /** The address the call was placed through (`http://127.0.0.1:4010`): event URLs are built on it; null keeps them relative. */
  origin: string | null;
  /** The runner's state (JSON the domain owns), or null once the call has nothing left to run. */
  state: unknown;
  trace: StoredTraceEntry[];
  createdAt: number;
  updatedAt: number;
}

/** What a step may change: everything but identity, parties and mode. */
export type CallProgress = Pick<
  CallRecord,
  'status' | 'answeredAt' | 'endedAt' | 'durationSeconds' | 'answeredBy' | 'answeredDevice' | 'outcome' | 'recordingId' | 'voicemailId' | 'state' | 'trace'
>;

export interface CallFilters {
  status?: CallStatus;
  direction?: CallDirection;
}

export interface CallsRepo {
  /** Call inside the transaction that opens the call (with its first job). */
  insert(c: CallRecord): Promise<void>;
  /** Writes a step's outcome: the row, the state and the trace together. */
  update(id: string, p: CallProgress, now: number): Promise<void>;
  /** The account's call (another account's is not found). */
  get(accountId: string, id: string): Promise<CallRecord | undefined>;
  /** For the call's durable jobs, which act on a call whatever the account. */
  getById(id: string): Promise<CallRecord | undefined>;
  /** The call that made this recording (recording ids are unique: migration 6). */
  getByRecording(accountId: string, recordingId: string): Promise<CallRecord | undefined>;
  /** Newest first, keyset-paged (contract §2), with the `status` and `direction` filters of contract §6. */
  list(accountId: string, f: CallFilters, limit: number, cursor?: string): Promise<Page<CallRecord>>;
}

