import type { FastifyInstance, FastifyReply } from 'fastify';
import { ServiceError } from '../errors.js';
import type { Store } from '../storage/store.js';
import { UNAUTHENTICATED_RATE, type RateLimitOptions } from '../../api/values/http.js';

/** Past this many buckets, the full ones are forgotten (a full bucket is the same as none). */
const MAX_TRACKED_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * How many processes a limit is shared between: PostgreSQL replicas each enforce their
 * share of it, 1/N of the rate and of the burst, N counted from the replicas' heartbeats (no query
 * per request). A client that alternates between replicas so gets no more than the limit in all; a
 * client that stays on one replica gets its share (documented in the OpenAPI description of 429).
 * Chosen over a bucket in the database, which would cost a write per request (and a conflict
 * between replicas on every hot key). One process (SQLite): 1.
 */
export type LimitShare = () => number;
const WHOLE: LimitShare = () => 1;

/** The share of a store's process: 1, or one of the replicas its peers count. */
export const limitShare = (store: Pick<Store, 'peers'>): LimitShare => {
  const peers = store.peers;
  return () => peers.count();
};

/**
 * contract §2: a token bucket per key. Buckets refill on wall-clock time: rate limiting protects the
 * process, so an advanced service clock must not refill them. In memory: a restart forgives.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly whole: RateLimitOptions,
    private readonly wall: () => number = Date.now,
    private readonly share: LimitShare = WHOLE,
  ) {}

  /** This process's part of the limit: the whole of it, or its share among replicas. */
  get limit(): RateLimitOptions {
    const n = this.share();
    return n <= 1 ? this.whole : { ratePerSec: this.whole.ratePerSec / n, burst: Math.max(1, Math.floor(this.whole.burst / n)) };
  }

  /** Takes `cost` tokens (1: a request) when the bucket holds them; a cost over the burst counts as the burst. */
  take(key: string, cost = 1): { allowed: boolean; remaining: number; resetSecs: number; retryAfterSecs: number } {
    const opts = this.limit;
    const now = this.wall();
    if (!this.buckets.has(key) && this.buckets.size >= MAX_TRACKED_BUCKETS) this.forgetFull(now, opts);
    const b = this.buckets.get(key) ?? { tokens: opts.burst, updatedMs: now };
    b.tokens = Math.min(opts.burst, b.tokens + ((now - b.updatedMs) / 1000) * opts.ratePerSec);
    b.updatedMs = now;
    const need = Math.min(cost, opts.burst);
    const allowed = b.tokens >= need;
    if (allowed) b.tokens -= need;
    this.buckets.set(key, b);
    const remaining = Math.floor(b.tokens);
    return {
      allowed,
      remaining,
      resetSecs: Math.ceil((opts.burst - b.tokens) / opts.ratePerSec),
      retryAfterSecs: Math.max(1, Math.ceil((need - b.tokens) / opts.ratePerSec)),
    };
  }

  /**
   * Takes `cost` tokens whatever the bucket holds: for work already done (a body longer than it said).
   * The bucket may go below empty and refills from there.
   */
  charge(key: string, cost: number): void {
    const opts = this.limit;
    const now = this.wall();
    const b = this.buckets.get(key);
    if (!b) return; // forgotten as full meanwhile: nothing to charge against
    b.tokens = Math.min(opts.burst, b.tokens + ((now - b.updatedMs) / 1000) * opts.ratePerSec) - cost;
    b.updatedMs = now;
  }

  private forgetFull(now: number, opts: RateLimitOptions): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.updatedMs) / 1000) * opts.ratePerSec >= opts.burst) this.buckets.delete(key);
    }
  }
}

export const rateLimited = (retryAfterSecs: number): ServiceError =>
  new ServiceError('rate_limited', `too many requests; retry after ${retryAfterSecs}s`, undefined, { 'Retry-After': String(retryAfterSecs) });

/**
 * The per-address gate for requests that failed authentication (UNAUTHENTICATED_RATE): call it with
 * the client's address when the credentials are refused; it throws `429` once that address has used
 * its bucket, and otherwise lets the caller answer `401`.
 */
export function unauthenticatedGate(opts: RateLimitOptions = UNAUTHENTICATED_RATE, share: LimitShare = WHOLE): (clientAddress: string) => void {
  const buckets = new TokenBuckets(opts, Date.now, share);
  return (clientAddress) => {
    const r = buckets.take(`ip:${clientAddress}`);
    if (!r.allowed) throw rateLimited(r.retryAfterSecs);
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Takes a request from a key's bucket (contract §2), setting the RateLimit headers; throws the 429
     * past it. The API's requests and the console's pages (its session's key) take from the same bucket.
     */
    takeKeyRequest: (keyId: string, reply: FastifyReply) => void;
  }
}

export function installRateLimit(app: FastifyInstance, opts: RateLimitOptions, share: LimitShare = WHOLE): void {
  const buckets = new TokenBuckets(opts, Date.now, share);
  app.decorate('takeKeyRequest', (keyId: string, reply: FastifyReply) => {
    const r = buckets.take(keyId);
    // This process's part of the limit (its share among replicas).
    reply.header('RateLimit-Limit', String(buckets.limit.burst));
    reply.header('RateLimit-Remaining', String(r.remaining));
    reply.header('RateLimit-Reset', String(r.resetSecs));
    if (!r.allowed) throw rateLimited(r.retryAfterSecs);
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!req.auth) return;
    app.takeKeyRequest(req.auth.keyId, reply);
  });
}
