import type { ChaosProfile } from '../../api/values/chaos.js';
import type { Repositories } from '../storage/store.js';
import { CHAOS_STATE_KEY } from '../storage/service-state-repo.js';
import { randomBase62 } from '../ids.js';
import { EMPTY_PROFILE, isOffProfile, type StoredChaosProfiles } from '../world/chaos.js';

// contract §9: the chaos profiles are stored with the service's data (one service state value, by
// scope), so every process on a shared database (PostgreSQL replicas, a worker beside an API
// process) applies the same ones; each holds them in memory (world/chaos.ts) and reads them again
// when they change.

/** Every stored profile, by scope (an account id, or SERVICE_SCOPE). */
export async function storedChaosProfiles(r: Pick<Repositories, 'serviceState'>): Promise<StoredChaosProfiles> {
  return (await r.serviceState.get<StoredChaosProfiles>(CHAOS_STATE_KEY)) ?? {};
}

/** The profile stored for `scope`, or the off one. */
export async function chaosProfileOf(r: Pick<Repositories, 'serviceState'>, scope: string): Promise<ChaosProfile> {
  return (await storedChaosProfiles(r))[scope]?.profile ?? EMPTY_PROFILE;
}

/**
 * Stores `profile` for `scope` as a new revision (its counters start again in every process); the
 * off profile removes the scope's, so the next one out (its agency's, the service-wide one) applies.
 */
export async function putChaosProfile(tx: Pick<Repositories, 'serviceState'>, scope: string, profile: ChaosProfile): Promise<void> {
  const stored = { ...(await storedChaosProfiles(tx)) };
  if (isOffProfile(profile)) delete stored[scope];
  else stored[scope] = { profile, rev: randomBase62(12) };
  await tx.serviceState.set(CHAOS_STATE_KEY, stored);
}
