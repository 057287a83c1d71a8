import { iso } from '../clock.js';
import type { VoicemailRecord } from '../storage/voicemails-repo.js';
import type { Voicemail } from '../../api/schemas/calls.js';

// Records → API shapes for voicemails (contract §6: Voicemail). Rules for reads: views/README.md.

/** The absolute URL of a voicemail's audio, on the address the caller used (as greeting media URLs are). */
export type VoicemailAudioUrl = (voicemailId: string) => string;

export const voicemailAudioPath = (id: string): string => `/v1/voicemails/${id}/audio`;

export const voicemailView = (v: VoicemailRecord, audioUrl: VoicemailAudioUrl): Voicemail => ({
  id: v.id,
  callId: v.callId,
  numberId: v.numberId,
  from: v.from,
  to: v.to,
  durationSeconds: v.durationSeconds,
  transcript: v.transcript,
  transcriptStatus: v.transcriptStatus,
  // spec: voicemail.received — audio stays available at recordingUrl even when transcription fails.
  recordingUrl: audioUrl(v.id),
  receivedAt: iso(v.receivedAt),
});
