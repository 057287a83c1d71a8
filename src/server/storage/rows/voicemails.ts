// The voicemails family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { TranscriptStatus } from '../../../api/values/calls.js';
import type { VoicemailRecord } from '../voicemails-repo.js';

// contract §6: Voicemail. Written by the call runner in the transaction of the step that captured it
// (the one that emits `voicemail.received`).

export interface VoicemailRow {
  seq: number;
  id: string;
  account_id: string;
  call_id: string;
  number_id: string;
  from_number: string;
  to_number: string;
  duration_seconds: number;
  transcript: string | null;
  transcript_status: TranscriptStatus;
  received_at: number;
  created_at: number;
}

export const toRecord = (r: VoicemailRow): VoicemailRecord => ({
  id: r.id,
  accountId: r.account_id,
  callId: r.call_id,
  numberId: r.number_id,
  from: r.from_number,
  to: r.to_number,
  durationSeconds: r.duration_seconds,
  transcript: r.transcript,
  transcriptStatus: r.transcript_status,
  receivedAt: r.received_at,
  createdAt: r.created_at,
});
