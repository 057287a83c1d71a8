import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError, validationError } from '../errors.js';
import { hashKey, isWellFormedKey } from '../domain/keys.js';
import { assertMayActServiceWide } from '../domain/test-keys.js';
import type { AccountRecord } from '../storage/accounts-repo.js';
import type { KeyRecord } from '../storage/keys-repo.js';
import type { UnitOfWork } from '../deps.js';
import type { Clock } from '../clock.js';
import { limitShare, unauthenticatedGate } from './rate-limit.js';
import type { RateLimitOptions } from '../../api/values/http.js';
import type { Store } from '../storage/store.js';
import { urlCarriesCredential } from './log-redaction.js';
import { accountCounter, noteHolder } from './client-holds.js';
import { SUBACCOUNT_HEADER } from './request-headers.js';

export interface AuthContext {
  keyId: string;
  mode: 'live' | 'test';
  /** The account whose key was presented. */
  caller: AccountRecord;
  /** The account the request acts on: the caller, or its sub-account through `Service-Subaccount`. */
  account: AccountRecord;
  viaSubaccount: boolean;
  /** The key, the account and the sub-account read again (`Actor.recheck`). */
  recheck: () => Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** No bearer credential needed (health, OpenAPI, public media and pages). */
    public?: boolean;
    /** Agency-level route: rejects the `Service-Subaccount` header (contract §3). */
    agencyLevel?: boolean;
    /**
     * A sandbox act that changes the world for every account of this service (the clock, the payment
     * provider): only the service's root account may, acting as itself, with a live key
     * (`domain/test-keys.ts` assertMayActServiceWide).
     */
    serviceWide?: boolean;
  }
}

// lastUsedAt is for people reading a key list; writing it on every request would turn each read into
// a write, so it is refreshed at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;

const KEY_REVOKED = 'this API key was revoked';
const ACCOUNT_SUSPENDED = 'this account is suspended';
const SUBACCOUNT_SUSPENDED = 'this sub-account is suspended';

const unauthorized = (message: string) => new ServiceError('unauthorized', message);

/** Keys and accounts are read in a transaction of their own, before the route's. */
export interface AuthDeps {
  uow: UnitOfWork;
  clock: Clock;
}

type FoundKey = { key: KeyRecord; account: AccountRecord | undefined } | undefined;

/**
 * The request's key and its account, read once for every request that asked for the same key in
 * this turn of the event loop (on PostgreSQL a read each costs a statement, a pooled client and a
 * wait per request, most of them for the same few keys). The read is made once all of them
 * have asked (setImmediate), so its snapshot is no older than any of them would have had alone: a
 * key revoked before a request arrived is refused to it. Each caller gets its own copy.
 */
export class KeyLookups {
  private asked = new Map<string, Promise<FoundKey>>();
  private readonly waiting = new Map<string, { resolve: (found: FoundKey) => void; reject: (err: unknown) => void }>();
  constructor(private readonly uow: UnitOfWork) {}

  async find(hash: string): Promise<FoundKey> {
    let found = this.asked.get(hash);
    if (found === undefined) {
      found = new Promise<FoundKey>((resolve, reject) => this.waiting.set(hash, { resolve, reject }));
      if (this.asked.size === 0) setImmediate(() => this.readAll());
      this.asked.set(hash, found);
    }
    const shared = await found;
    return shared && { key: { ...shared.key }, account: shared.account && { ...shared.account } };
  }

  private readAll(): void {
    const waiting = [...this.waiting];
    this.asked = new Map();
    this.waiting.clear();
    for (const [hash, { resolve, reject }] of waiting) {
      this.uow.read(async (tx) => await tx.keys.findWithAccount(hash), { oneStatement: true }).then(resolve, reject);
    }
  }
}

export async function authenticate(
  req: FastifyRequest,
  deps: AuthDeps & { keys?: KeyLookups },
): Promise<AuthContext> {
  // spec: Authentication 1, 4 — missing, malformed, revoked or unknown credentials are 401.
  const header = req.headers.authorization;
  // A key is never taken from the URL (URLs land in logs, proxies and shell
  // history); say where it belongs, and that the one sent is now exposed.
  if (!header && urlCarriesCredential(req.url)) {
    throw unauthorized('API keys are not accepted in the URL; send the key in the Authorization header ("Authorization: Bearer sk_..."), and revoke a key that was sent in a URL');
  }
  if (!header) throw unauthorized('missing Authorization header; send "Authorization: Bearer sk_..."');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m || !isWellFormedKey(m[1]!)) throw unauthorized('malformed credentials; expected "Authorization: Bearer sk_live_..." or sk_test_');
  const hash = hashKey(m[1]!);
  // The key and its account in one read of one statement (every request pays for it).
  const found = deps.keys ? await deps.keys.find(hash) : await deps.uow.read(async (tx) => await tx.keys.findWithAccount(hash), { oneStatement: true });
  const key = found?.key;
  const caller = found?.account;
  if (!key) throw unauthorized('unknown API key');
  if (key.revokedAt !== null) throw unauthorized(KEY_REVOKED);
  if (!caller) throw unauthorized('unknown API key');
  if (caller.status === 'suspended') throw new ServiceError('forbidden', ACCOUNT_SUSPENDED);

  const now = deps.clock.nowMs();
  if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USED_RESOLUTION_MS) await deps.uow.write(async (tx) => await tx.keys.markUsed(key.id, now), { rowGuarded: true });

  const ctx: AuthContext = { keyId: key.id, mode: key.mode, caller, account: caller, viaSubaccount: false, recheck: async () => await recheckStanding(deps, key.accountId, key.id, caller.id) };
  const raw = req.headers[SUBACCOUNT_HEADER];
  // One tenant must not move time or break payments for all the
  // others, and a test key moves no money (a clock advance runs every account's renewals).
  if (req.routeOptions.config?.serviceWide) assertMayActServiceWide(caller, key.mode, raw !== undefined);
  if (raw === undefined) return ctx;
  const subaccountId = Array.isArray(raw) ? raw[0] : raw;

  // contract §3: the header on agency-level routes is a validation error, whatever the key.
  if (req.routeOptions.config?.agencyLevel) {
    throw validationError(['headers', SUBACCOUNT_HEADER], 'not accepted on agency-level routes (/v1/subaccounts, /v1/agency)');
  }
  if (!caller.isAgency) throw new ServiceError('forbidden', 'Service-Subaccount needs an agency key');
  const child = subaccountId ? await deps.uow.read(async (tx) => await tx.accounts.getChild(caller.id, subaccountId)) : undefined;
  // spec: Authentication 5 — a sub-account that is not a direct child gives 403 (not 404: the header
  // is a permission question, and it must not reveal which ids exist).
  if (!child) throw new ServiceError('forbidden', 'Service-Subaccount is not a direct sub-account of this agency');
  if (child.status === 'suspended') throw new ServiceError('forbidden', SUBACCOUNT_SUSPENDED);
  return { ...ctx, account: child, viaSubaccount: true, recheck: async () => await recheckStanding(deps, key.accountId, key.id, caller.id, child.id) };
}

/**
 * The key, its account and the sub-account acted on, read again, for a request
 * that waited (a held read wakes after the key was revoked or the account suspended: it must not
 * answer with what happened since). The same answers as `authenticate`.
 */
async function recheckStanding(deps: AuthDeps, keyAccountId: string, keyId: string, callerId: string, subaccountId?: string): Promise<void> {
  await deps.uow.read(async (tx) => {
    if ((await tx.keys.get(keyAccountId, keyId))?.revokedAt !== null) throw unauthorized(KEY_REVOKED);
    if ((await tx.accounts.get(callerId))?.status !== 'active') throw new ServiceError('forbidden', ACCOUNT_SUSPENDED);
    if (subaccountId !== undefined && (await tx.accounts.get(subaccountId))?.status !== 'active') throw new ServiceError('forbidden', SUBACCOUNT_SUSPENDED);
  });
}

export function installAuth(app: FastifyInstance, deps: AuthDeps & { options: { unauthenticatedRate?: RateLimitOptions }; store: Store }): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  // Refused credentials are limited per client address (rate-limit.ts); a
  // request with a good key never touches that bucket.
  // Each replica refuses past its share of the limit, so alternating gains nothing.
  const refused = unauthenticatedGate(deps.options.unauthenticatedRate, limitShare(deps.store));
  // In-process reads (SQLite) are served from its cache at once: nothing to share.
  const keys = deps.store.readsAreRoundTrips ? new KeyLookups(deps.uow) : undefined;
  const withKeys = { ...deps, keys };
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.public) return;
    // Unknown routes authenticate too: a 404 is only told to a caller with a key.
    try {
      req.auth = await authenticate(req, withKeys);
      // A body still arriving later counts against this account (slow-bodies.ts).
      noteHolder(req.raw, accountCounter(req.auth.caller));
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'unauthorized') refused(req.ip);
      throw err;
    }
  });
}
