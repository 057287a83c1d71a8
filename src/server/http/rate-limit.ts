import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';

export interface RateLimitOptions {
  /** Tokens per second (contract §2: local default 100). */
  ratePerSec: number;
  /** Bucket size (contract §2: burst 200). */
  burst: number;
}

/**
 * issue 14 (defect 6): requests that present no key, a malformed, unknown or revoked one are limited
 * per client address, so a script guessing keys (2,000 a second) gets `429` rather than an answer
 * each. Tighter than a key's bucket: a person fixing a typo never needs 50 tries in a burst. A good
 * key on the same address is counted in its own bucket, never in this one.
 */
export const UNAUTHENTICATED_RATE: RateLimitOptions = { ratePerSec: 5, burst: 50 };

/** Past this many buckets, the full ones are forgotten (a full bucket is the same as none). */
const MAX_TRACKED_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * contract §2: a token bucket per key. Buckets refill on wall-clock time: rate limiting protects the
 * process, so an advanced service clock must not refill them. In memory: a restart forgives.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  constructor(
    private readonly opts: RateLimitOptions,
    private readonly wall: () => number = Date.now,
  ) {}

  take(key: string): { allowed: boolean; remaining: number; resetSecs: number; retryAfterSecs: number } {
    const now = this.wall();
    if (!this.buckets.has(key) && this.buckets.size >= MAX_TRACKED_BUCKETS) this.forgetFull(now);
    const b = this.buckets.get(key) ?? { tokens: this.opts.burst, updatedMs: now };
    b.tokens = Math.min(this.opts.burst, b.tokens + ((now - b.updatedMs) / 1000) * this.opts.ratePerSec);
    b.updatedMs = now;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    this.buckets.set(key, b);
    const remaining = Math.floor(b.tokens);
    return {
      allowed,
      remaining,
      resetSecs: Math.ceil((this.opts.burst - b.tokens) / this.opts.ratePerSec),
      retryAfterSecs: Math.max(1, Math.ceil((1 - b.tokens) / this.opts.ratePerSec)),
    };
  }

  private forgetFull(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.updatedMs) / 1000) * this.opts.ratePerSec >= this.opts.burst) this.buckets.delete(key);
    }
  }
}

const rateLimited = (retryAfterSecs: number): ServiceError =>
  new ServiceError('rate_limited', `too many requests; retry after ${retryAfterSecs}s`, undefined, { 'Retry-After': String(retryAfterSecs) });

/**
 * The per-address gate for requests that failed authentication (UNAUTHENTICATED_RATE): call it with
 * the client's address when the credentials are refused; it throws `429` once that address has used
 * its bucket, and otherwise lets the caller answer `401`.
 */
export function unauthenticatedGate(opts: RateLimitOptions = UNAUTHENTICATED_RATE): (clientAddress: string) => void {
  const buckets = new TokenBuckets(opts);
  return (clientAddress) => {
    const r = buckets.take(`ip:${clientAddress}`);
    if (!r.allowed) throw rateLimited(r.retryAfterSecs);
  };
}

export function installRateLimit(app: FastifyInstance, opts: RateLimitOptions): void {
  const buckets = new TokenBuckets(opts);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.auth) return;
    const r = buckets.take(req.auth.keyId);
    reply.header('RateLimit-Limit', String(opts.burst));
    reply.header('RateLimit-Remaining', String(r.remaining));
    reply.header('RateLimit-Reset', String(r.resetSecs));
    if (!r.allowed) throw rateLimited(r.retryAfterSecs);
  });
}
