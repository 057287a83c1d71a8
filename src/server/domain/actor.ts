import type { AccountRecord } from '../storage/accounts-repo.js';

/**
 * Who acts on a caller's behalf: the account (the caller or its sub-account through
 * `Service-Subaccount`) and the key's mode. Every domain function run for a caller takes
 * `(deps, actor, …args)`; background jobs take `(deps, …args)`.
 */
export interface Actor {
  account: AccountRecord;
  mode: 'live' | 'test';
  /**
   * Throws what the request would be answered if its credentials were presented again now (a revoked
   * key: 401; a suspended account or sub-account: 403). A request that waits (a held read) calls it
   * when it wakes: its key may have been revoked meanwhile. Absent: nothing to re-check
   * (domain tests, background work).
   */
  recheck?: () => Promise<void>;
}
