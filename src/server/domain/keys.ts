import { createHash } from 'node:crypto';
import { randomBase62, newId } from '../ids.js';
import type { KeysRepo, KeyRecord } from '../storage/keys-repo.js';
import type { Clock } from '../clock.js';
import { notFound, testKeyForbidden } from '../errors.js';
import type { Actor } from './actor.js';
import { assertMayChange } from './test-keys.js';
import type { Page } from '../../api/schemas/page.js';

export interface KeysDeps {
  keys: KeysRepo;
  clock: Clock;
}

// spec: Authentication 2 — the key prefix names the mode.
import { KEY_PATTERN, KEY_PREFIX, KEY_SECRET_LENGTH } from '../../api/values/keys.js';
export { KEY_PREFIX };

/**
 * Keys are 190 random bits, so a single SHA-256 is the right storage hash (as GitHub and Stripe do
 * for tokens): slow password hashes defend low-entropy secrets and would cost every request.
 */
export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const isWellFormedKey = (key: string): boolean => KEY_PATTERN.test(key);

export interface MintedKey {
  record: KeyRecord;
  key: string;
}

export function mintKey(accountId: string, name: string, mode: 'live' | 'test', now: number): MintedKey {
  const key = `${KEY_PREFIX[mode]}${randomBase62(KEY_SECRET_LENGTH)}`;
  return { key, record: keyRecord(accountId, name, mode, key, now) };
}

/** The stored record of a key (its hash, never the key): for a new key, or one put back (a snapshot load). */
export function keyRecord(accountId: string, name: string, mode: 'live' | 'test', key: string, now: number): KeyRecord {
  return {
    id: newId('key'),
    accountId,
    name,
    mode,
    // Enough to recognise a key in a list without weakening it.
    prefix: key.slice(0, KEY_PREFIX[mode].length + 4),
    hash: hashKey(key),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
}

/** A new key of the actor's account; `mode` is the new key's. */
export async function createKey(deps: KeysDeps, actor: Actor, name: string, mode: 'live' | 'test'): Promise<MintedKey> {
  // A test key may create test keys only. Otherwise a leaked test key (pasted in
  // a test suite, a CI log) would mint live keys and be worth as much as a live one.
  if (actor.mode === 'test' && mode === 'live') {
    throw testKeyForbidden('a test key can create test keys only ("mode": "test"); a live key is created with a live key');
  }
  const minted = mintKey(actor.account.id, name, mode, deps.clock.nowMs());
  await deps.keys.insert(minted.record);
  return minted;
}

export async function listKeys(deps: Pick<KeysDeps, 'keys'>, actor: Actor, limit: number, cursor?: string): Promise<Page<KeyRecord>> {
  return await deps.keys.list(actor.account.id, limit, cursor);
}

/**
 * One key's public fields (`svc keys get`). Another account's key, or none, is `not_found`
 * (spec: Authentication 6, resources of another account appear as `not_found`).
 */
export async function getKey(deps: Pick<KeysDeps, 'keys'>, actor: Actor, id: string): Promise<KeyRecord> {
  const key = await deps.keys.get(actor.account.id, id);
  if (!key) throw notFound('API key');
  return key;
}

/**
 * contract §3: revoking makes the key fail with 401 from the next request on. Revoking twice is
 * harmless. contract §2: a live key is a live key's to revoke (a test key that could would lock the
 * account out of live work, and it cannot mint a live key back).
 */
export async function revokeKey(deps: KeysDeps, actor: Actor, id: string): Promise<KeyRecord> {
  const accountId = actor.account.id;
  const key = await deps.keys.get(accountId, id);
  if (!key) throw notFound('API key');
  assertMayChange(actor, key.mode, 'this API key');
  if (key.revokedAt === null) await deps.keys.revoke(id, deps.clock.nowMs());
  return (await deps.keys.get(accountId, id))!;
}
