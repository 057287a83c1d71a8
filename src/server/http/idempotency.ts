import { createHash } from 'node:crypto';
import { CONSOLE_LOGIN_PATH } from '../../api/values/console.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, validationError } from '../errors.js';
import { ContentionError } from '../storage/storage-errors.js';
import type { IdempotencyRecord, IdempotencyRepo, IdempotencyScope } from '../storage/idempotency-repo.js';
import { preciseWallClock, type Clock } from '../clock.js';
import type { TxDeps, UnitOfWork } from '../deps.js';
import { MAX_JSON_DEPTH } from '../../api/values/http.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from './request-headers.js';

// contract §2: scoped to account + mode + method + path + key, kept 24 h.
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * A request's hold on its Idempotency-Key. `held`: an in-flight row was written before the handler
 * ran (so a concurrent duplicate is refused while the handler awaits); a route declared
 * `COMMITS_ONCE` holds nothing until `commitOnce` records the answer in the write's own transaction.
 */
interface IdempotencyClaim {
  scope: IdempotencyScope;
  hash: string;
  at: number;
  /**
   * When the request arrived (`preciseWallClock`): an answer to its key written after it was a
   * request in flight at its arrival (contract §2: 409), not one to replay.
   */
  arrivedAt: number;
  held: boolean;
  completed: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyClaim | null;
    /** When its headers were read (`noteArrival`, `preciseWallClock`). */
    arrivedAt: number;
  }
  interface FastifyContextConfig {
    idempotency?: 'in-commit' | 'pure';
  }
}

/**
 * Notes when a request arrived: the service's first hook calls it, before authentication and the
 * body are read, so a duplicate's arrival is not put after an answer written while it waited.
 */
export function noteArrival(req: FastifyRequest): void {
  req.arrivedAt = preciseWallClock();
}

/**
 * Route config for a POST whose every write runs inside `commitOnce` (the handler does nothing
 * before it that a duplicate could repeat): its key is checked in the write's own transaction
 * instead of being held by a write of its own first, so the request costs one transaction, not
 * two (a separate in-flight write would be a commit per send). A key already answered is
 * replayed from there (`IdempotentReplay`, sent by the error handler); a duplicate that arrived
 * before the first's answer was written (in the same group commit, or at another replica) is a 409:
 * the first was in flight when it came (`answeredSinceArrival`).
 */
export const COMMITS_ONCE = { idempotency: 'in-commit' } as const;

/**
 * Route config for a POST that changes nothing and answers a body from what it reads (a call
 * evaluation): its key is checked for form and nothing else, since a retry is answered as the first
 * was without a record of it, and holding one would store something for a request that promises to
 * store nothing (contract §6) and cost two writes a request.
 */
export const PURE_POST = { idempotency: 'pure' } as const;

const IN_PROGRESS = 'a request with this Idempotency-Key is still in progress; retry later';
const WAS_IN_PROGRESS = 'a request with this Idempotency-Key was still in progress when this one arrived; retry to get its answer';
const MISMATCH = 'this Idempotency-Key was used with a different request body; use a fresh key for a new request';

/** What a key's record says of a request with this body hash: free, or why not, or the answer to replay. */
async function lookup(deps: Pick<TxDeps, 'idempotency'>, scope: IdempotencyScope, hash: string, now: number): Promise<'free' | 'in_flight' | 'mismatch' | IdempotencyRecord> {
  return verdict(await deps.idempotency.get(scope), hash, now);
}

function verdict(existing: IdempotencyRecord | undefined, hash: string, now: number): 'free' | 'in_flight' | 'mismatch' | IdempotencyRecord {
  if (!existing || existing.createdAt < now - IDEMPOTENCY_TTL_MS) return 'free';
  if (existing.state === 'in_flight') return 'in_flight';
  if (existing.requestHash !== hash) return 'mismatch';
  return existing;
}

/**
 * A request whose key already has an answer for the same body: the stored answer is sent again
 * (the error handler sends it, `sendReplay`). Thrown inside the write, so nothing it did is kept.
 */
export class IdempotentReplay extends Error {
  constructor(readonly record: IdempotencyRecord) {
    super('idempotent replay');
  }
}

/**
 * contract §2: "a request with the same key still in flight: 409 conflict". A send holds no
 * in-flight row (COMMITS_ONCE): a duplicate that arrived while the first ran finds only its answer,
 * once committed. That answer written after the duplicate arrived means the first was in flight
 * then: a 409 (a retry after it gets the replay). Written before, it was a retry: the replay.
 */
function answeredSinceArrival(found: 'in_flight' | 'mismatch' | IdempotencyRecord, idem: IdempotencyClaim): boolean {
  return typeof found === 'object' && found.answeredAt !== undefined && found.answeredAt > idem.arrivedAt;
}

/** A key that is not free: a 409 (in flight, or another body), or the answer to replay. */
function refusalOrReplay(found: 'in_flight' | 'mismatch' | IdempotencyRecord): Error {
  if (found === 'in_flight') return new ServiceError('conflict', IN_PROGRESS);
  if (found === 'mismatch') return new ServiceError('conflict', MISMATCH);
  return new IdempotentReplay(found);
}

/** Sends a recorded answer again, marked as such (contract §2). */
export function sendReplay(req: FastifyRequest, reply: FastifyReply, record: IdempotencyRecord): FastifyReply {
  // The answer is on record already: nothing for onSend to record.
  if (req.idempotency) req.idempotency.completed = true;
  reply.header('Idempotent-Replayed', 'true');
  return reply
    .status(record.status ?? 200)
    .type('application/json; charset=utf-8')
    .serializer((x: unknown) => x as string)
    .send(record.body ?? '');
}

/**
 * Canonical JSON (sorted keys) so the same logical body always hashes the same. The parser already
 * refuses bodies nested deeper than MAX_JSON_DEPTH; the bound is checked here too so a
 * body that reached this walk some other way is a validation_error, never a stack overflow (500).
 */
function canonical(value: unknown, depth = 0): string {
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH) throw validationError(['body'], `nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function hashRequestBody(body: unknown): string {
  const raw = Buffer.isBuffer(body) ? body.toString('base64') : canonical(body ?? null);
  return createHash('sha256').update(raw).digest('hex');
}

export interface IdempotencyDeps {
  uow: UnitOfWork;
  clock: Clock;
}

// Secrets shown once (API keys, webhook signing secrets, a console link) are never stored
// for a replay. A whole key or secret: a key's `prefix` (sk_live_ab12) is not one.
const SECRET_VALUE = new RegExp(`^(sk_(live|test)_[0-9A-Za-z]{32}|whsec_[0-9A-Za-z_-]{16,}|https?://[^\\s?]+${CONSOLE_LOGIN_PATH}\\?token=[0-9A-Za-z]+)$`);

/**
 * The response as a replay may show it: every secret value replaced by null. Our responses nest a
 * few levels; past MAX_JSON_DEPTH this throws (an internal_error) rather than overflow the stack or
 * store something it did not redact.
 */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? null : value;
  if (value && typeof value === 'object' && depth >= MAX_JSON_DEPTH) throw new Error(`response nested deeper than ${MAX_JSON_DEPTH} levels; not recorded for replay`);
  if (Array.isArray(value)) return value.map((v) => withoutSecrets(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecrets(v, depth + 1)]));
  }
  return value;
}

/**
 * Runs a write and records its response under the request's idempotency key in the SAME
 * transaction, so a crash can never leave a committed write whose retry would do it again.
 * Routes that create things call this; every other POST is recorded by the onSend hook. `status` may
 * depend on the result (a create that can also find the thing already there: 201 or 200).
 *
 * The transaction is shared with the other writes of this turn of the event loop (group commit:
 * `uow.write`); the promise settles once it has committed, so the answer sent on it is durable.
 * A key not held beforehand (`COMMITS_ONCE`) is checked again inside the transaction: a duplicate
 * answered after this request arrived makes it a 409, and a retry then replays that answer.
 */
export async function commitOnce<T>(
  deps: IdempotencyDeps,
  req: FastifyRequest,
  status: number | ((result: T) => number),
  fn: (tx: TxDeps) => Promise<T>,
): Promise<T> {
  const idem = req.idempotency;
  const statusOf = (result: T) => (typeof status === 'function' ? status(result) : status);
  if (idem && !idem.held) {
    // First as if the key were new, as it nearly always is: the write, then its answer recorded with
    // no look at the key (a claim first would be one statement of a send's ten on PostgreSQL). A row
    // of the key fails the record; that, or any failure of the write, and the write is asked for
    // again below, where the key's claim decides (a replay or a 409 wins over whatever the write did).
    // A write refused for contention is not run twice: the client retries it, with its key.
    try {
      return await deps.uow.write(async (tx) => {
        const result = await fn(tx);
        await recordAnswer(tx, idem, statusOf(result), JSON.stringify(withoutSecrets(result)), true);
        return result;
      });
    } catch (err) {
      if (err instanceof ContentionError) throw err;
    }
  }
  return await deps.uow.write(async (tx) => {
    // Held for this transaction as it is looked at (claim): the answer below replaces the hold. The
    // write starts without waiting for the claim's answer, so that on PostgreSQL its first statements
    // go to the server with the claim's (one wait less per send). A key answered already
    // (or in flight, or sent with another body) still decides the answer whatever the write did or
    // failed to do: it is thrown once both have settled, and the transaction, the write's rows with
    // it, is rolled back.
    const claim = idem && !idem.held ? tx.idempotency.claim(idem.scope, idem.hash, idem.at) : undefined;
    const [claimed, written] = await Promise.allSettled([claim, fn(tx)]);
    if (claimed.status === 'rejected') throw claimed.reason;
    if (idem && claim) {
      const found = verdict(claimed.value, idem.hash, idem.at);
      if (found !== 'free') throw answeredSinceArrival(found, idem) ? new ServiceError('conflict', WAS_IN_PROGRESS) : refusalOrReplay(found);
    }
    if (written.status === 'rejected') throw written.reason;
    const result = written.value;
    if (idem && !idem.completed) await recordAnswer(tx, idem, statusOf(result), JSON.stringify(withoutSecrets(result)));
    return result;
  });
}

/** `first`: the key has not been looked at (`recordFirst`: a row of it fails the write). */
async function recordAnswer(deps: Pick<TxDeps, 'idempotency' | 'afterCommit'>, idem: IdempotencyClaim, status: number, body: string, first = false): Promise<void> {
  if (idem.held) await deps.idempotency.complete(idem.scope, status, body);
  else if (first) await deps.idempotency.recordFirst(idem.scope, idem.hash, status, body, idem.at, preciseWallClock());
  else await deps.idempotency.record(idem.scope, idem.hash, status, body, idem.at, preciseWallClock());
  // Answered once the record has committed, not when it was written: a write the engine rolls back
  // and runs again (PostgreSQL, on a serialization failure) must record the answer again.
  deps.afterCommit(() => (idem.completed = true));
}

function recordable(payload: unknown): string {
  if (typeof payload !== 'string') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return payload;
  }
  // Outside the try: a response withoutSecrets cannot redact must fail, not be stored as it is.
  return JSON.stringify(withoutSecrets(parsed));
}

/** One idempotency layer, accepted on every POST (contract §2). */
export async function installIdempotency(app: FastifyInstance, deps: IdempotencyDeps): Promise<void> {
  await deps.uow.write(async (tx) => {
    await tx.idempotency.clearInFlight();
    await tx.idempotency.purgeOlderThan(deps.clock.nowMs() - IDEMPOTENCY_TTL_MS);
  });
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'POST' || !req.auth) return;
    const raw = req.headers[IDEMPOTENCY_KEY_HEADER];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0]! : raw;
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw validationError(['headers', IDEMPOTENCY_KEY_HEADER], IDEMPOTENCY_KEY_RULE);
    if (req.routeOptions.config.idempotency === 'pure') return;
    const scope: IdempotencyScope = {
      accountId: req.auth.account.id,
      // contract §2: "scoped by mode as well": a live retry never replays what a test key did.
      mode: req.auth.mode,
      method: req.method,
      path: req.routeOptions.url ? (req.url.split('?')[0] ?? req.url) : req.url,
      key,
    };
    const hash = hashRequestBody(req.body);
    const now = deps.clock.nowMs();
    const arrivedAt = req.arrivedAt;
    // A route that commits once checks its key in its write's own transaction (commitOnce: a
    // refusal or a replay from there); nothing is read here (a read here waits for the open
    // commit and costs 2-5 % of a send's CPU). Any other route holds the key (an in-flight row)
    // before its handler runs.
    if (req.routeOptions.config.idempotency === 'in-commit') {
      req.idempotency = { scope, hash, at: now, arrivedAt, held: false, completed: false };
      return;
    }
    const outcome = await deps.uow.write(async (tx) => {
      const found = await lookup(tx, scope, hash, now);
      if (found === 'free') await tx.idempotency.begin(scope, hash, now);
      return found;
    });
    if (outcome === 'free') {
      req.idempotency = { scope, hash, at: now, arrivedAt, held: true, completed: false };
      return;
    }
    const refused = refusalOrReplay(outcome);
    if (refused instanceof IdempotentReplay) return sendReplay(req, reply, refused.record);
    throw refused;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency;
    if (!idem || idem.completed) return payload;
    if (reply.statusCode >= 400) {
      // A failed request changed nothing, so the key stays free for a corrected retry.
      idem.completed = true;
      if (idem.held) await deps.uow.write(async (tx) => await tx.idempotency.abandon(idem.scope));
    } else {
      const body = recordable(payload);
      await deps.uow.write((tx) => recordAnswer(tx, idem, reply.statusCode, body));
    }
    return payload;
  });
}
