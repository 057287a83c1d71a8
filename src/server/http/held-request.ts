import type { FastifyReply } from 'fastify';

/**
 * Runs a held read (`wait`) with a signal that aborts when the client goes away before the answer
 * is written, so the held read is released instead of waiting out its time for nobody.
 */
export async function whileClientWaits<T>(reply: FastifyReply, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', onClose);
  try {
    return await read(controller.signal);
  } finally {
    reply.raw.off('close', onClose);
  }
}
