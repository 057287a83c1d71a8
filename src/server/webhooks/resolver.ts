import { lookup } from 'node:dns/promises';
import type { ResolvedAddress } from '../domain/webhooks/url-safety.js';

/**
 * Name resolution for webhook deliveries, behind an interface (contract §1: the outside world is
 * simulated or injected). The delivery worker resolves once, checks every answer
 * (checkResolvedAddresses) and connects to the checked address, so a name cannot be re-pointed
 * between the check and the connection.
 */
export interface Resolver {
  lookup(hostname: string): Promise<ResolvedAddress[]>;
}

/** The operating system's resolver (getaddrinfo through node:dns `lookup`). */
export const systemResolver: Resolver = {
  async lookup(hostname) {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
};

/** A fixed table, for tests: unknown names fail as NXDOMAIN would. */
export function staticResolver(table: Record<string, string | string[]>): Resolver {
  return {
    async lookup(hostname) {
      const entry = table[hostname.toLowerCase()];
      if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return (Array.isArray(entry) ? entry : [entry]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}
