// The simulated recorder: the outside world's audio for call recordings and voicemails. The local
// service carries no media (spec: Softphone — media flows between the device and the carrier), so
// a recording's audio is synthesized when it is read: a real WAV file a player opens, as long as the
// recording lasted, the same bytes every time for the same recording.
//
// Decision (the spec does not show the audio format): 8 kHz, 16-bit, mono PCM — telephone quality —
// holding a quiet sine tone whose pitch is drawn from the recording's id, so two recordings do not
// sound alike and a test can tell them apart. The length is the recording's duration, capped at
// RECORDING_MAX_SECS so a day-long simulated call does not answer with hundreds of megabytes.

export const WAV_FORMAT = { sampleRate: 8000, bitsPerSample: 16, channels: 1 } as const;
/** At most 10 minutes of audio (9.6 MB) per file, whatever the recording's duration. */
export const RECORDING_MAX_SECS = 600;
const AMPLITUDE = 0.1 * 32767; // quiet: -20 dBFS
const WAV_HEADER_BYTES = 44;

/** A tone between 300 and 700 Hz drawn from the id (FNV-1a), so the same id always sounds the same. */
export function toneHz(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 300 + (h % 401);
}

/** The WAV of one recording: `seconds` long (capped; at least one sample so the file is never empty of data). */
export function synthesizeRecording(id: string, seconds: number): Buffer {
  const { sampleRate, bitsPerSample, channels } = WAV_FORMAT;
  const secs = Math.min(Math.max(0, seconds), RECORDING_MAX_SECS);
  const samples = Math.max(1, Math.round(secs * sampleRate));
  const blockAlign = channels * (bitsPerSample / 8);
  const dataBytes = samples * blockAlign;
  const buf = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  // RIFF header, then the `fmt ` chunk (PCM = format 1) and the `data` chunk.
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * blockAlign, 28);
  buf.writeUInt16LE(blockAlign, 32);
  buf.writeUInt16LE(bitsPerSample, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  const w = (2 * Math.PI * toneHz(id)) / sampleRate;
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(AMPLITUDE * Math.sin(w * i)), WAV_HEADER_BYTES + i * 2);
  return buf;
}

/** What a WAV header says (tests, and anyone checking a file is what it claims). */
export function readWavHeader(buf: Buffer): { sampleRate: number; bitsPerSample: number; channels: number; format: number; dataBytes: number; seconds: number } {
  if (buf.length < WAV_HEADER_BYTES || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  if (buf.toString('ascii', 12, 16) !== 'fmt ' || buf.toString('ascii', 36, 40) !== 'data') throw new Error('unexpected chunk layout');
  const channels = buf.readUInt16LE(22);
  const sampleRate = buf.readUInt32LE(24);
  const bitsPerSample = buf.readUInt16LE(34);
  const dataBytes = buf.readUInt32LE(40);
  return { format: buf.readUInt16LE(20), channels, sampleRate, bitsPerSample, dataBytes, seconds: dataBytes / (sampleRate * channels * (bitsPerSample / 8)) };
}
