// The simulated speech-to-text provider (contract §1: only the outside world is simulated, behind a
// small interface so a real provider could be plugged in). The call engine asks it for the transcript
// of a voicemail, of a recorded call (`call.transcript`) and of a live call (`call.transcript.delta`).
//
// `SimulatedTranscriber` is deterministic: the same request gives the same answer, the words picked
// from fixed phrase lists by a generator seeded with the recording id, so tests and sandbox users see
// stable transcripts. Its rules (TRANSCRIPTION in api/values/calls.ts):
// - a recording shorter than `minSpeechSecs` has no speech → `{status: 'failed'}`;
// - otherwise one turn per `secsPerTurn` of audio (at least one, at most `maxTurns`), the speakers
//   taking turns in the order given (a voicemail has the one speaker `caller`).
// It is synchronous, like the engine's steps (a real provider would be called by the runner and its
// answer handed to the engine the way the decision webhook's is).

import { TRANSCRIPTION } from '../../api/values/calls.js';

export interface TranscriptTurn {
  speaker: string;
  text: string;
}

export interface TranscriptionRequest {
  /** Seeds the words: the recording's id (or, for the live stream of an unrecorded call, the call's id). */
  recordingId: string;
  kind: 'call' | 'voicemail';
  from: string;
  to: string;
  durationSecs: number;
  /** Who speaks, in turn order; at least one. */
  speakers: readonly string[];
}

export type TranscriptionResult = { status: 'available'; text: string; turns: TranscriptTurn[] } | { status: 'failed' };

export interface Transcriber {
  transcribe(request: TranscriptionRequest): TranscriptionResult;
}

const CALLER_PHRASES = [
  'Hi, I am calling about my order from last week.',
  'Could you tell me when it will arrive?',
  'I would like to change the delivery address.',
  'Is there someone who can help me with billing?',
  'Thanks, that makes sense.',
  'Can you send me a confirmation by email?',
  'I tried the website but it did not work.',
  'What are your opening hours on Saturday?',
  'Great, I will wait for the message then.',
  'Sorry, could you repeat that please?',
] as const;

const AGENT_PHRASES = [
  'Thanks for calling, how can I help you today?',
  'Let me look that up for you.',
  'I can see your account here.',
  'It should arrive within two business days.',
  'I have updated that for you.',
  'You will get a confirmation in a few minutes.',
  'Is there anything else I can do for you?',
  'One moment while I check with the team.',
  'We are open from nine to five on Saturdays.',
  'Have a great day.',
] as const;

const VOICEMAIL_PHRASES = [
  'Hi, this is a message for the team.',
  'Please call me back when you get a chance.',
  'I am calling about the appointment on Thursday.',
  'My number is the one I am calling from.',
  'It is not urgent, tomorrow is fine.',
  'I wanted to confirm the details we discussed.',
  'Thanks, talk to you soon.',
  'Let me know if the time still works for you.',
] as const;

function phrasesFor(kind: TranscriptionRequest['kind'], speaker: string, turn: number): readonly string[] {
  if (kind === 'voicemail') return VOICEMAIL_PHRASES;
  if (speaker === 'caller') return CALLER_PHRASES;
  if (speaker === 'agent') return AGENT_PHRASES;
  // Any other speaker name: alternate the two lists so a turn still reads like a conversation.
  return turn % 2 === 0 ? CALLER_PHRASES : AGENT_PHRASES;
}

/** FNV-1a of the seed, then mulberry32: a small, stable generator (not for anything secret). */
function seededRandom(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let a = h;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many turns a recording of this length holds (TRANSCRIPTION), 0 when it holds no speech. */
export function transcriptTurnCount(durationSecs: number): number {
  if (!(durationSecs >= TRANSCRIPTION.minSpeechSecs)) return 0;
  return Math.min(TRANSCRIPTION.maxTurns, Math.max(1, Math.floor(durationSecs / TRANSCRIPTION.secsPerTurn)));
}

export class SimulatedTranscriber implements Transcriber {
  transcribe(request: TranscriptionRequest): TranscriptionResult {
    if (request.speakers.length === 0) throw new Error(`transcribe ${request.recordingId}: no speakers`);
    const count = transcriptTurnCount(request.durationSecs);
    if (count === 0) return { status: 'failed' };
    const random = seededRandom(`${request.kind}:${request.recordingId}`);
    const turns: TranscriptTurn[] = [];
    for (let i = 0; i < count; i++) {
      const speaker = request.speakers[i % request.speakers.length]!;
      const list = phrasesFor(request.kind, speaker, i);
      turns.push({ speaker, text: list[Math.floor(random() * list.length)]! });
    }
    return { status: 'available', text: transcriptText(turns), turns };
  }
}

/**
 * The transcript as one string: a single speaker's words run on; a conversation is one line per
 * turn, `speaker: words`.
 */
export function transcriptText(turns: readonly TranscriptTurn[]): string {
  const speakers = new Set(turns.map((t) => t.speaker));
  if (speakers.size <= 1) return turns.map((t) => t.text).join(' ');
  return turns.map((t) => `${t.speaker}: ${t.text}`).join('\n');
}
