import { describe, expect, it } from 'vitest';
import { RECORDING_MAX_SECS, WAV_FORMAT, readWavHeader, synthesizeRecording, toneHz } from './recorder.js';

describe('the simulated recorder', () => {
  it('writes a PCM WAV header a player accepts: 8 kHz, 16-bit, mono, sizes consistent', () => {
    const wav = synthesizeRecording('rec_abc', 3);
    const h = readWavHeader(wav);
    expect(h).toEqual({ format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, dataBytes: 3 * 8000 * 2, seconds: 3 });
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8); // RIFF chunk size
    expect(wav.readUInt32LE(28)).toBe(WAV_FORMAT.sampleRate * 2); // byte rate
    expect(wav.length).toBe(44 + 3 * 8000 * 2);
  });

  it('holds a quiet tone, not silence, and is deterministic per id', () => {
    const a = synthesizeRecording('rec_one', 1);
    expect(synthesizeRecording('rec_one', 1).equals(a)).toBe(true);
    expect(synthesizeRecording('rec_two', 1).equals(a)).toBe(toneHz('rec_one') === toneHz('rec_two'));
    let peak = 0;
    for (let i = 44; i < a.length; i += 2) peak = Math.max(peak, Math.abs(a.readInt16LE(i)));
    expect(peak).toBeGreaterThan(1000);
    expect(peak).toBeLessThan(32767 * 0.2);
  });

  it('caps the length, and a zero-second recording still has one sample', () => {
    expect(readWavHeader(synthesizeRecording('rec_long', 86_400)).seconds).toBe(RECORDING_MAX_SECS);
    expect(readWavHeader(synthesizeRecording('rec_zero', 0)).dataBytes).toBe(2);
  });
});
