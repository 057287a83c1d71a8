import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';

export interface RateLimitOptions {
  /** Tokens per second (contract §2: local default 100). */
  ratePerSec: number;
  /** Bucket size (contract §2: burst 200). */
  burst: number;
}

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
}

export function installRateLimit(app: FastifyInstance, opts: RateLimitOptions): void {
  const buckets = new TokenBuckets(opts);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.auth) return;
    const r = buckets.take(req.auth.keyId);
    reply.header('RateLimit-Limit', String(opts.burst));
    reply.header('RateLimit-Remaining', String(r.remaining));
    reply.header('RateLimit-Reset', String(r.resetSecs));
    if (!r.allowed) {
      throw new ServiceError('rate_limited', `too many requests; retry after ${r.retryAfterSecs}s`, undefined, {
        'Retry-After': String(r.retryAfterSecs),
      });
    }
  });
}
