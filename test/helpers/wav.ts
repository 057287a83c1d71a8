// A WAV file's header, read by the tests themselves (the canonical 44-byte RIFF layout the contract's
// recordings and voicemails use), so a recording is checked by other code than the one that wrote it.

export interface WavHeader {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataBytes: number;
  seconds: number;
}

export function wavHeader(buf: Buffer): WavHeader {
  if (buf.length < 44 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  if (buf.toString('ascii', 12, 16) !== 'fmt ' || buf.toString('ascii', 36, 40) !== 'data') throw new Error('not the canonical 44-byte WAV layout');
  const [format, channels, sampleRate, bitsPerSample, dataBytes] = [buf.readUInt16LE(20), buf.readUInt16LE(22), buf.readUInt32LE(24), buf.readUInt16LE(34), buf.readUInt32LE(40)];
  return { format, channels, sampleRate, bitsPerSample, dataBytes, seconds: dataBytes / (sampleRate * channels * (bitsPerSample / 8)) };
}
