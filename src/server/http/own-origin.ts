import type { Server } from 'node:http';

/**
 * Where this process's HTTP server can be reached on this machine, from the address it listens on
 * (never from a request's Host: a client could name anything there): a wildcard address is reached
 * on loopback, any other as itself. Undefined before it listens. What a sink's URL is made of.
 */
export function ownOrigin(server: Server): string | undefined {
  const a = server.address();
  if (!a || typeof a === 'string') return undefined;
  const host = a.address === '0.0.0.0' ? '127.0.0.1' : a.address === '::' ? '::1' : a.address;
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${a.port}`).origin;
}
