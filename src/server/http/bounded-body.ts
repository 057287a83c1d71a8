import type { Readable } from 'node:stream';

/** A body read through, of which only the first bytes were kept. */
export interface BoundedBody {
  /** Its first bytes, at most the `keep` asked for. */
  head: Buffer;
  /** The bytes read. */
  bytes: number;
  /** More than `max` bytes came: reading stopped there. */
  tooLarge: boolean;
}

/**
 * Reads a request body to its end holding only its first `keep` bytes: each piece goes to `onPiece`
 * as it arrives (a MAC over the whole body) and is then let go, so a body costs `keep` bytes of
 * memory however large it is. Past `max` bytes it stops reading (the caller answers and closes).
 */
export function readBoundedBody(stream: Readable, keep: number, max: number, onPiece: (piece: Buffer) => void): Promise<BoundedBody> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    const stop = () => stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    const finish = (tooLarge: boolean) => {
      stop();
      resolve({ head: Buffer.concat(kept, keptBytes), bytes, tooLarge });
    };
    const onData = (piece: Buffer) => {
      bytes += piece.length;
      if (bytes > max) {
        stream.pause();
        finish(true);
        return;
      }
      onPiece(piece);
      if (keptBytes < keep) {
        // A copy: the piece's memory may be a slab shared with the rest of the socket's reads.
        const part = Buffer.from(piece.subarray(0, keep - keptBytes));
        kept.push(part);
        keptBytes += part.length;
      }
    };
    const onEnd = () => finish(false);
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    // The client went away before the end: nothing to keep.
    const onClose = () => onError(new Error('the client closed the request before its body ended'));
    stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
