import type { MediaStore } from '../storage/media-store.js';
import { randomBase62 } from '../ids.js';
import { notFound } from '../errors.js';

// Media the service serves without auth under /media/<name> (contract §5: voicemail greetings).
// A name is unguessable (143 random bits) because the URL is the only protection, and its extension
// says how it is served.

const EXTENSION_BY_TYPE: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/ogg': 'ogg' };
const TYPE_BY_EXTENSION: Record<string, string> = Object.fromEntries(Object.entries(EXTENSION_BY_TYPE).map(([t, e]) => [e, t]));

/** A fresh media name for a file of `contentType` (one of the types above). */
export function newMediaName(kind: string, contentType: string): string {
  const ext = EXTENSION_BY_TYPE[contentType];
  if (!ext) throw new Error(`no media extension for ${contentType}`);
  return `${kind}_${randomBase62(24)}.${ext}`;
}

/**
 * Whether the bytes look like audio of the declared type (their magic numbers): the service serves
 * the file with that type, so a mislabelled upload is refused rather than served wrong.
 */
export function audioMatchesType(bytes: Buffer, contentType: string): boolean {
  switch (contentType) {
    case 'audio/mpeg':
      // An ID3 tag, or an MPEG audio frame sync (11 set bits).
      return bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);
    case 'audio/wav':
      return bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WAVE';
    case 'audio/ogg':
      return bytes.subarray(0, 4).toString('latin1') === 'OggS';
    default:
      return false;
  }
}

/** A public media file and how to serve it; an unknown name is `not_found`. Service-wide: no actor. */
export async function readMedia(deps: { media: MediaStore }, name: string): Promise<{ bytes: Buffer; contentType: string }> {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  const contentType = TYPE_BY_EXTENSION[ext];
  const bytes = contentType ? await deps.media.get(name) : undefined;
  if (!bytes || !contentType) throw notFound('media');
  return { bytes, contentType };
}
