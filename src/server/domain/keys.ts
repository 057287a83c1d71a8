import { createHash } from 'node:crypto';
import { randomBase62, newId } from '../ids.js';
import type { KeysRepo, KeyRecord } from '../storage/keys-repo.js';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';

// spec: Authentication 2 — the key prefix names the mode.
import { KEY_PATTERN, KEY_PREFIX } from '../../api/values/keys.js';
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
  const key = `${KEY_PREFIX[mode]}${randomBase62(32)}`;
  return {
    key,
    record: {
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
    },
  };
}

export function createKey(repo: KeysRepo, clock: Clock, accountId: string, name: string, mode: 'live' | 'test'): MintedKey {
  const minted = mintKey(accountId, name, mode, clock.nowMs());
  repo.insert(minted.record);
  return minted;
}

/** contract §3: revoking makes the key fail with 401 from the next request on. Revoking twice is harmless. */
export function revokeKey(repo: KeysRepo, clock: Clock, accountId: string, id: string): KeyRecord {
  const key = repo.get(accountId, id);
  if (!key) throw notFound('API key');
  if (key.revokedAt === null) repo.revoke(id, clock.nowMs());
  return repo.get(accountId, id)!;
}
