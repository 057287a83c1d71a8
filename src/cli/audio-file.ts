// Audio the API returns (call recordings, voicemail audio) written where the user wants it. Imported
// by run modules only. cli.md: data to stdout only when stdout is not a terminal; on a terminal the
// bytes go to a file (never raw audio over the screen), and the file's path is said on stderr.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CliContext } from './context.js';
import { CliError } from './errors.js';
import { notice } from './command-kit.js';
import type { StreamResponse } from '../api/client/client.js';

const EXTENSIONS: Record<string, string> = { 'audio/wav': '.wav', 'audio/x-wav': '.wav', 'audio/wave': '.wav', 'audio/mpeg': '.mp3', 'audio/ogg': '.ogg' };

/** `audio/wav; charset=…` → `.wav`; unknown types keep `.wav`, the only type the service records in. */
export const audioExtension = (contentType: string | undefined): string => EXTENSIONS[(contentType ?? '').split(';')[0]!.trim().toLowerCase()] ?? '.wav';

export interface SaveAudioOptions {
  /** `-O FILE`; `-` is stdout. */
  out?: string;
  /** The resource id: the default file name on a terminal (`<id>.wav`). */
  id: string;
  /** For the notice: `recording of call …`. */
  what: string;
}

/**
 * Streams the audio to `-O FILE`, else to stdout when piped, else to `<id>.<ext>` in the working
 * directory: chunk by chunk as it arrives, so a long recording is never held in memory whole.
 */
export async function saveAudio(ctx: CliContext, audio: StreamResponse, opts: SaveAudioOptions): Promise<void> {
  const toStdout = opts.out === '-' || (opts.out === undefined && !ctx.io.stdoutTTY);
  if (toStdout) {
    const stdout = ctx.io.stdout;
    if (!stdout.writeBytes) {
      audio.body.destroy();
      throw new CliError('this output cannot take raw audio; give -O FILE');
    }
    for await (const chunk of audio.body) if (!stdout.writeBytes(chunk) && stdout.drain) await stdout.drain();
    return;
  }
  const file = resolve(ctx.cwd, opts.out ?? `${opts.id}${audioExtension(audio.contentType)}`);
  let bytes = 0;
  const counted = async function* (source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      bytes += chunk.length;
      yield chunk;
    }
  };
  try {
    await pipeline(audio.body, counted, createWriteStream(file));
  } catch (err) {
    audio.body.destroy();
    // No half-written audio left behind under the name the user asked for.
    await rm(file, { force: true }).catch(() => undefined);
    throw new CliError(`cannot write ${file}: ${(err as Error).message}`);
  }
  notice(ctx, `wrote the ${opts.what} to ${file} (${bytes} bytes, ${audio.contentType ?? 'audio'})`);
}
