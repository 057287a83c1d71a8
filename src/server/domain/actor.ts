import type { AccountRecord } from '../storage/accounts-repo.js';

/**
 * Who acts on a caller's behalf: the account (the caller or its sub-account through
 * `Service-Subaccount`) and the key's mode. Every domain function run for a caller takes
 * `(deps, actor, …args)`; background jobs take `(deps, …args)`.
 */
export interface Actor {
  account: AccountRecord;
  mode: 'live' | 'test';
}
