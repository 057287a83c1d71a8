import type { IncomingMessage } from 'node:http';
import { ServiceError } from '../errors.js';
import type { AccountRecord } from '../storage/accounts-repo.js';

/**
 * How many connections a client may hold open while the service waits on it or for it: a body still
 * arriving past its grace (`slow-bodies.ts`), a held read (`wait`), a console stream. Every local
 * client shares 127.0.0.1 and its SERVER_LIMITS.maxConnectionsPerAddress (256) connections, so one
 * client holding them all would lock every other out. Counted per account as well as per key or
 * session: keys are free to make (any key makes test keys), so a cap per key alone bounds nothing;
 * accounts are made only by the agency that owns the local service (its sub-accounts), so the count
 * of the key's account is the bound that holds.
 */
export const HOLD_LIMITS = {
  /**
   * Held at once for one account (the key's; an agency key acting for a sub-account counts as the
   * agency): a quarter of one address's connections, so one account leaves the rest to the others.
   */
  perAccount: 64,
  /** Held reads (`wait`) at once for one key: a follower or a test waiting per stream needs a few. */
  heldReadsPerKey: 16,
  /** MCP requests (/mcp) at once for one key: a tool call may wait, as a held read does. */
  mcpRequestsPerKey: 16,
  /** Console streams at once for one session: one per open page; a browser opens at most 6 connections per host. */
  streamsPerSession: 8,
} as const;

/** One counter a hold counts against, and its bound. */
export interface HoldCounter {
  /** e.g. `account:acc_…`, `key:key_…` */
  id: string;
  max: number;
  /** Named in the 429's message: "held reads of this key". */
  what: string;
}

/** The counter of the account whose key (or console session) holds the request. */
export const accountCounter = (caller: Pick<AccountRecord, 'id'>): HoldCounter => ({
  id: `account:${caller.id}`,
  max: HOLD_LIMITS.perAccount,
  what: 'requests held open for this account (slow bodies, held reads, console streams)',
});

/** A hold refused: answered at once, 429 with Retry-After. */
export const holdRefused = (c: HoldCounter): ServiceError =>
  new ServiceError('rate_limited', `too many ${c.what} (at most ${c.max} at once); retry after 1s`, undefined, { 'Retry-After': '1' });

/** The in-memory counters of one service process (one per app). */
export class ClientHolds {
  private readonly counts = new Map<string, number>();

  /** Counts one hold against every counter, or throws `holdRefused` (counting nothing) when one is full. */
  hold(counters: HoldCounter[]): () => void {
    for (const c of counters) if ((this.counts.get(c.id) ?? 0) >= c.max) throw holdRefused(c);
    for (const c of counters) this.counts.set(c.id, (this.counts.get(c.id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const c of counters) {
        const left = (this.counts.get(c.id) ?? 1) - 1;
        if (left > 0) this.counts.set(c.id, left);
        else this.counts.delete(c.id);
      }
    };
  }
}

/**
 * The account counter of each authenticated request, for what sees only the raw request (a body
 * still arriving is judged below Fastify, `slow-bodies.ts`). Set by auth (`http/auth.ts`).
 */
const holders = new WeakMap<IncomingMessage, HoldCounter>();
export const noteHolder = (req: IncomingMessage, counter: HoldCounter): void => void holders.set(req, counter);
export const holderOf = (req: IncomingMessage): HoldCounter | undefined => holders.get(req);

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's hold counters (`http/client-holds.ts`). */
    clientHolds: ClientHolds;
  }
}
