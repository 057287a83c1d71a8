import type { Page } from '../../api/schemas/page.js';
import type { TranscriptStatus } from '../../api/values/calls.js';

// contract §6: Voicemail. Written by the call runner in the transaction of the step that captured it
// (the one that emits `voicemail.received`).

export interface VoicemailRecord {
  id: string;
  accountId: string;
  callId: string;
  numberId: string;
  from: string;
  to: string;
  durationSeconds: number;
  transcript: string | null;
  transcriptStatus: TranscriptStatus;
  receivedAt: number;
  createdAt: number;
}

export interface VoicemailsRepo {
  insert(v: VoicemailRecord): Promise<void>;
  /** The account's voicemail (another account's is not found). */
  get(accountId: string, id: string): Promise<VoicemailRecord | undefined>;
  /** Newest first, keyset-paged (contract §2). */
  list(accountId: string, limit: number, cursor?: string): Promise<Page<VoicemailRecord>>;
}

