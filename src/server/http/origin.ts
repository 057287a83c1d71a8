import type { FastifyRequest } from 'fastify';

/** The address the caller used to reach the service (`http://127.0.0.1:4010`): public URLs are built on it. */
export const requestOrigin = (req: FastifyRequest): string => `${req.protocol}://${req.host || '127.0.0.1'}`;
