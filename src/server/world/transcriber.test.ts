import { describe, expect, it } from 'vitest';
import { TRANSCRIPTION } from '../../api/values/calls.js';
import { SimulatedTranscriber, transcriptText, transcriptTurnCount, type TranscriptionRequest } from './transcriber.js';

const t = new SimulatedTranscriber();
const req = (o: Partial<TranscriptionRequest> = {}): TranscriptionRequest => ({
  recordingId: 'rec_abc',
  kind: 'call',
  from: '+14155550100',
  to: '+14155550111',
  durationSecs: 30,
  speakers: ['caller', 'agent'],
  ...o,
});

describe('SimulatedTranscriber', () => {
  it('is deterministic: the same request gives the same transcript', () => {
    const a = t.transcribe(req());
    expect(a.status).toBe('available');
    expect(t.transcribe(req())).toEqual(a);
  });

  it('seeds the words with the recording id', () => {
    const texts = new Set(['rec_1', 'rec_2', 'rec_3', 'rec_4', 'rec_5', 'rec_6'].map((id) => JSON.stringify(t.transcribe(req({ recordingId: id })))));
    expect(texts.size).toBeGreaterThan(1);
  });

  it('a call alternates the speakers, one turn per secsPerTurn, the text one line per turn', () => {
    const r = t.transcribe(req({ durationSecs: 4 * TRANSCRIPTION.secsPerTurn + 1 }));
    if (r.status !== 'available') throw new Error('expected a transcript');
    expect(r.turns.map((x) => x.speaker)).toEqual(['caller', 'agent', 'caller', 'agent']);
    for (const turn of r.turns) expect(turn.text.length).toBeGreaterThan(0);
    expect(r.text).toBe(r.turns.map((x) => `${x.speaker}: ${x.text}`).join('\n'));
  });

  it('a voicemail has one speaker and plain running text', () => {
    const r = t.transcribe(req({ kind: 'voicemail', speakers: ['caller'], durationSecs: 20 }));
    if (r.status !== 'available') throw new Error('expected a transcript');
    expect(r.turns.length).toBe(3);
    expect(new Set(r.turns.map((x) => x.speaker))).toEqual(new Set(['caller']));
    expect(r.text).toBe(r.turns.map((x) => x.text).join(' '));
  });

  it(`fails on a recording shorter than ${TRANSCRIPTION.minSpeechSecs} s (no speech)`, () => {
    expect(t.transcribe(req({ durationSecs: TRANSCRIPTION.minSpeechSecs - 0.5 }))).toEqual({ status: 'failed' });
    expect(t.transcribe(req({ durationSecs: 0 }))).toEqual({ status: 'failed' });
    expect(t.transcribe(req({ durationSecs: TRANSCRIPTION.minSpeechSecs })).status).toBe('available');
  });

  it('has at least one turn and at most maxTurns', () => {
    expect(transcriptTurnCount(TRANSCRIPTION.minSpeechSecs)).toBe(1);
    expect(transcriptTurnCount(3600)).toBe(TRANSCRIPTION.maxTurns);
    const r = t.transcribe(req({ durationSecs: 3600 }));
    expect(r.status === 'available' && r.turns.length).toBe(TRANSCRIPTION.maxTurns);
  });

  it('refuses a request with no speakers', () => {
    expect(() => t.transcribe(req({ speakers: [] }))).toThrow(/no speakers/);
  });

  it('transcriptText of no turns is empty', () => {
    expect(transcriptText([])).toBe('');
  });
});
