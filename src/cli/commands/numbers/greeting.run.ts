import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { numberRef } from '../../phone-numbers.js';
import { printOne } from '../../print-resource.js';
import { uploadGreeting } from '../../../api/resources/routes.js';
import { GREETING_AUDIO_MAX_BYTES, type GreetingAudioType } from '../../../api/values/routes.js';
import type { GreetingOptions } from './options.js';

const BY_EXTENSION: Record<string, GreetingAudioType> = { '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.oga': 'audio/ogg', '.opus': 'audio/ogg' };

export async function runGreeting(ctx: CliContext, opts: GreetingOptions): Promise<void> {
  const number = numberRef(opts.number);
  const type = opts.contentType ?? BY_EXTENSION[extname(opts.file).toLowerCase()];
  if (type === undefined) {
    throw new UsageError(`--content-type: cannot tell the audio type of ${opts.file} from its extension (${Object.keys(BY_EXTENSION).join(' ')}); give --content-type`, '--content-type');
  }
  let audio: Buffer;
  try {
    audio = await readFile(opts.file);
  } catch (err) {
    throw new UsageError(`<file>: cannot read ${opts.file}: ${(err as Error).message}`, '<file>');
  }
  // contract §5: at most 5 MB; said before uploading it.
  if (audio.length > GREETING_AUDIO_MAX_BYTES) {
    throw new UsageError(`<file>: ${opts.file} is ${audio.length} bytes; the limit is ${GREETING_AUDIO_MAX_BYTES}`, '<file>');
  }
  const uploaded = await uploadGreeting(await ctx.client(), number, audio, type);
  const format = ctx.outputFormat;
  if (format !== undefined && format !== 'table') return printOne(ctx, uploaded);
  ctx.io.stdout.write(`${uploaded.greetingAudioUrl}\n`);
}
