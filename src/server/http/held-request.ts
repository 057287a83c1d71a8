import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountCounter, HOLD_LIMITS } from './client-holds.js';

/**
 * Runs a held read (`wait`) with a signal that aborts when the client goes away before the answer
 * is written, so the held read is released instead of waiting out its time for nobody.
 * A read that may be held (`wait` > 0) counts against its key's and its account's held requests
 * (`client-holds.ts` HOLD_LIMITS) until it is answered; over either it is a 429 at once.
 */
export async function whileClientWaits<T>(req: FastifyRequest, reply: FastifyReply, waitSecs: number, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const release =
    waitSecs > 0
      ? req.server.clientHolds.hold([{ id: `key:${req.auth.keyId}`, max: HOLD_LIMITS.heldReadsPerKey, what: 'held reads (`wait`) of this key' }, accountCounter(req.auth.caller)])
      : () => {};
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  try {
    return await read(controller.signal);
  } finally {
    reply.raw.off('close', onClose);
    release();
  }
}
