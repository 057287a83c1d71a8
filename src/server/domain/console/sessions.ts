import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../ids.js';
import type { WallClock } from '../../clock.js';
import { ServiceError } from '../../errors.js';
import type { AccountsRepo, AccountRecord } from '../../storage/accounts-repo.js';
import type { ConsoleSessionRecord, ConsoleSessionsRepo } from '../../storage/console-sessions-repo.js';
import type { KeyRecord, KeysRepo } from '../../storage/keys-repo.js';
import { CONSOLE_LINK_TTL_SECS, CONSOLE_SESSION_TTL_SECS } from '../../../api/values/console.js';

// The console's sessions. A key mints a one-time link (60 s); the browser exchanges it
// once for a session cookie (12 h). Both age on real time (`deps.wall`), never on the service clock:
// they grant a login, so a frozen clock (`--clock manual`) must not keep a link alive, nor an advance
// end a session or a restored clock lengthen it. Every console request reads the session, then the key, its
// account and the sub-account again, so a revoked key, a suspended account or a sub-account that is
// no longer the agency's ends the session at its next request. Only hashes of the link token and
// of the cookie are stored (a copy of the database opens no console).

export interface ConsoleSessionDeps {
  consoleSessions: ConsoleSessionsRepo;
  keys: KeysRepo;
  accounts: AccountsRepo;
  wall: WallClock;
}

const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
/** 190 random bits, like an API key: unguessable, and safe to store as one SHA-256. */
const newSecret = (): string => randomBase62(32);

/** A console token's shape (what `newSecret` makes): anything else is refused before a lookup. */
const SECRET_PATTERN = /^[A-Za-z0-9]{32}$/;

/** The session ended or never was: the console answers with a page that says how to open it again. */
export const sessionEnded = (message: string): ServiceError => new ServiceError('unauthorized', message);

export interface LinkOwner {
  keyId: string;
  /** The key's account. */
  callerId: string;
  /** The sub-account the request acted on (`Service-Subaccount`), or null. */
  subaccountId: string | null;
}

/** A one-time link's token and when it stops working; only its hash is stored. */
export async function mintConsoleLink(deps: ConsoleSessionDeps, owner: LinkOwner): Promise<{ token: string; expiresAt: number }> {
  const now = deps.wall();
  // Rows past their time are removed as new ones come: the table holds only live links and sessions.
  await deps.consoleSessions.deleteExpired(now);
  const token = newSecret();
  const expiresAt = now + CONSOLE_LINK_TTL_SECS * 1000;
  await deps.consoleSessions.insert({ hash: hashSecret(token), kind: 'link', keyId: owner.keyId, accountId: owner.callerId, subaccountId: owner.subaccountId, csrf: newSecret(), createdAt: now, expiresAt });
  return { token, expiresAt };
}

/**
 * Login CSRF. The threat: a one-time link signs in whoever opens it, so a link minted with
 * someone else's key (an attacker's account on a shared service) and put in front of a victim would
 * silently sign the victim's browser in to the attacker's console; what the victim then types there
 * (a message, a key they create and copy, a route) lands in the attacker's account.
 *
 * Decision: opening the link changes nothing. It shows a page that names the account, the key and
 * the sub-account it would open ("Sign in to the console of Acme as key ci?"), and only that page's
 * button exchanges it: a POST that must come from the console's own origin (Sec-Fetch-Site/Origin,
 * as every console form), which another site can neither send (refused) nor make the victim click
 * inside a frame (`frame-ancestors 'none'`). A victim sees whose console it is before anything
 * happens. Binding the link to a cookie set by the CLI was not possible: `svc console` opens the
 * system browser with a URL and can set nothing in it, and a link printed by `--no-open` is meant to
 * be opened on another machine too. `previewConsoleLink` reads a link without using it up;
 * `exchangeConsoleLink` (the POST) uses it.
 */
export async function previewConsoleLink(deps: ConsoleSessionDeps, token: string): Promise<ConsoleStanding> {
  const { link } = await liveLink(deps, token);
  return await standingOf(deps, link);
}

const linkRefused = () => sessionEnded('this console link is used, expired or unknown; run `svc console` for a new one');

async function liveLink(deps: ConsoleSessionDeps, token: string): Promise<{ link: ConsoleSessionRecord; hash: string }> {
  if (!SECRET_PATTERN.test(token)) throw linkRefused();
  const hash = hashSecret(token);
  const link = await deps.consoleSessions.get(hash);
  if (!link || link.kind !== 'link' || link.expiresAt <= deps.wall()) throw linkRefused();
  return { link, hash };
}

/**
 * Exchanges a link's token for a session: the link is deleted in the same transaction (it works
 * once), and the session's secret (the cookie) is returned once. An unknown, used or expired link
 * is refused alike; so is one whose key was revoked since.
 */
export async function exchangeConsoleLink(deps: ConsoleSessionDeps, token: string): Promise<{ secret: string; session: ConsoleSessionRecord }> {
  const { link, hash } = await liveLink(deps, token);
  await deps.consoleSessions.delete(hash);
  await standingOf(deps, link);
  const now = deps.wall();
  const secret = newSecret();
  const session: ConsoleSessionRecord = { ...link, hash: hashSecret(secret), kind: 'session', csrf: newSecret(), createdAt: now, expiresAt: now + CONSOLE_SESSION_TTL_SECS * 1000 };
  await deps.consoleSessions.insert(session);
  return { secret, session };
}

/** A live session and who it acts as. */
export interface ConsoleStanding {
  session: ConsoleSessionRecord;
  key: KeyRecord;
  /** The key's account. */
  caller: AccountRecord;
  /** The account acted on: the caller, or its sub-account. */
  account: AccountRecord;
}

/** The session a cookie names, checked as an API key is on every request (spec: Authentication). */
export async function consoleSession(deps: ConsoleSessionDeps, secret: string | undefined): Promise<ConsoleStanding> {
  if (!secret || !SECRET_PATTERN.test(secret)) throw sessionEnded('no console session; run `svc console` to open one');
  const session = await deps.consoleSessions.get(hashSecret(secret));
  if (!session || session.kind !== 'session') throw sessionEnded('this console session has ended; run `svc console` to open a new one');
  if (session.expiresAt <= deps.wall()) throw sessionEnded('this console session expired; run `svc console` to open a new one');
  return await standingOf(deps, session);
}

/** The key, its account and the sub-account, read again: the same refusals as an API request. */
async function standingOf(deps: ConsoleSessionDeps, session: ConsoleSessionRecord): Promise<ConsoleStanding> {
  const key = await deps.keys.get(session.accountId, session.keyId);
  // contract §3: a revoked key fails from the next request on; the session it opened ends with it.
  if (!key || key.revokedAt !== null) throw sessionEnded('the API key this console session was opened with was revoked; run `svc console` with a valid key');
  const caller = await deps.accounts.get(session.accountId);
  if (!caller) throw sessionEnded('this console session has ended');
  if (caller.status !== 'active') throw new ServiceError('forbidden', 'this account is suspended');
  if (session.subaccountId === null) return { session, key, caller, account: caller };
  // spec: Authentication 5 — only a direct child of the agency, and an active one.
  const child = caller.isAgency ? await deps.accounts.getChild(caller.id, session.subaccountId) : undefined;
  if (!child) throw new ServiceError('forbidden', 'the sub-account of this session is not a direct sub-account of this agency');
  if (child.status !== 'active') throw new ServiceError('forbidden', 'this sub-account is suspended');
  return { session, key, caller, account: child };
}

/** An agency key's session switches the account it acts on: one of its direct children, or itself (null). */
export async function switchConsoleContext(deps: ConsoleSessionDeps, standing: ConsoleStanding, subaccountId: string | null): Promise<void> {
  if (subaccountId !== null) {
    if (!standing.caller.isAgency) throw new ServiceError('forbidden', 'only an agency key can act as a sub-account');
    const child = await deps.accounts.getChild(standing.caller.id, subaccountId);
    // Another agency's child, or no account: not found (its id must not be confirmed).
    if (!child) throw new ServiceError('not_found', 'sub-account not found');
  }
  await deps.consoleSessions.setSubaccount(standing.session.hash, subaccountId);
}

/** Signs a session out: its cookie opens nothing from now on. */
export async function endConsoleSession(deps: Pick<ConsoleSessionDeps, 'consoleSessions'>, standing: ConsoleStanding): Promise<void> {
  await deps.consoleSessions.delete(standing.session.hash);
}

/** Whether a form's token is the session's (constant time: the token is a secret). */
export function csrfMatches(standing: ConsoleStanding, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const a = Buffer.from(token);
  const b = Buffer.from(standing.session.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}
