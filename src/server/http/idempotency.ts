import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, validationError } from '../errors.js';
import type { IdempotencyRepo, IdempotencyScope } from '../storage/idempotency-repo.js';
import type { Clock } from '../clock.js';
import type { Db } from '../storage/database.js';
import { inTransaction } from '../storage/database.js';

// contract §2: scoped to account + method + path + key, kept 24 h.
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { scope: IdempotencyScope; completed: boolean } | null;
  }
}

/** Canonical JSON (sorted keys) so the same logical body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function hashRequestBody(body: unknown): string {
  const raw = Buffer.isBuffer(body) ? body.toString('base64') : canonical(body ?? null);
  return createHash('sha256').update(raw).digest('hex');
}

export interface IdempotencyDeps {
  db: Db;
  idempotency: IdempotencyRepo;
  clock: Clock;
}

// Secrets shown once (API keys, webhook signing secrets) are never stored for a replay.
// A whole key or secret: a key's `prefix` (sk_live_ab12) is not one.
const SECRET_VALUE = /^(sk_(live|test)_[0-9A-Za-z]{32}|whsec_[0-9A-Za-z_-]{16,})$/;

/** The response as a replay may show it: every secret value replaced by null. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? null : value;
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/**
 * Runs a write and records its response under the request's idempotency key in the SAME
 * transaction, so a crash can never leave a committed write whose retry would do it again.
 * Routes that create things call this; every other POST is recorded by the onSend hook. `status` may
 * depend on the result (a create that can also find the thing already there: 201 or 200).
 */
export function commitOnce<T>(
  deps: IdempotencyDeps,
  req: FastifyRequest,
  status: number | ((result: T) => number),
  fn: () => T,
): T {
  return inTransaction(deps.db, () => {
    const result = fn();
    const idem = req.idempotency;
    if (idem && !idem.completed) {
      const code = typeof status === 'function' ? status(result) : status;
      deps.idempotency.complete(idem.scope, code, JSON.stringify(withoutSecrets(result)));
      idem.completed = true;
    }
    return result;
  });
}

function recordable(payload: unknown): string {
  if (typeof payload !== 'string') return '';
  try {
    return JSON.stringify(withoutSecrets(JSON.parse(payload)));
  } catch {
    return payload;
  }
}

/** One idempotency layer, accepted on every POST (contract §2). */
export function installIdempotency(app: FastifyInstance, deps: IdempotencyDeps): void {
  deps.idempotency.clearInFlight();
  deps.idempotency.purgeOlderThan(deps.clock.nowMs() - IDEMPOTENCY_TTL_MS);
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'POST' || !req.auth) return;
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0]! : raw;
    if (!KEY_PATTERN.test(key)) throw validationError(['headers', 'idempotency-key'], 'must be 1-255 printable ASCII characters');
    const scope: IdempotencyScope = {
      accountId: req.auth.account.id,
      method: req.method,
      path: req.routeOptions.url ? (req.url.split('?')[0] ?? req.url) : req.url,
      key,
    };
    const hash = hashRequestBody(req.body);
    const now = deps.clock.nowMs();
    const outcome = inTransaction(deps.db, () => {
      const existing = deps.idempotency.get(scope);
      if (existing && existing.createdAt >= now - IDEMPOTENCY_TTL_MS) {
        if (existing.state === 'in_flight') return 'in_flight' as const;
        if (existing.requestHash !== hash) return 'mismatch' as const;
        return existing;
      }
      deps.idempotency.begin(scope, hash, now);
      return 'begun' as const;
    });
    if (outcome === 'in_flight') throw new ServiceError('conflict', 'a request with this Idempotency-Key is still in progress; retry later');
    if (outcome === 'mismatch') throw new ServiceError('conflict', 'this Idempotency-Key was used with a different request body; use a fresh key for a new request');
    if (outcome === 'begun') {
      req.idempotency = { scope, completed: false };
      return;
    }
    reply.header('Idempotent-Replayed', 'true');
    return reply
      .status(outcome.status ?? 200)
      .type('application/json; charset=utf-8')
      .serializer((x: unknown) => x as string)
      .send(outcome.body ?? '');
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency;
    if (!idem || idem.completed) return payload;
    idem.completed = true;
    if (reply.statusCode >= 400) {
      // A failed request changed nothing, so the key stays free for a corrected retry.
      deps.idempotency.abandon(idem.scope);
    } else {
      deps.idempotency.complete(idem.scope, reply.statusCode, recordable(payload));
    }
    return payload;
  });
}
