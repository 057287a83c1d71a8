import { forbidden, testKeyForbidden } from '../errors.js';
import type { Actor } from './actor.js';
import type { AccountRecord } from '../storage/accounts-repo.js';

// contract §2: what a test key may change. "A test key may read everything, but may change
// or delete only what a test key created: a live key, a number bought with a live key, an endpoint
// created with a live key (its secret included), and every service-wide sandbox act (clock, wallet,
// payments) are `403 forbidden` to it." A leaked test key (a CI log, a test suite) must not be able
// to take away what live work depends on, nor move live money. The rules live here, once; every
// record a test key could otherwise change keeps the mode of the key that created it.

export type { KeyMode } from '../../api/values/keys.js';
import type { KeyMode } from '../../api/values/keys.js';

/**
 * The words every refusal of this file starts with, so a CLI user sees which rule refused them. Each
 * refusal is `testKeyForbidden` (errors.ts): its detail on the Authorization header tells the CLI the
 * key's mode was the cause, so it names the profile that chose the key and the way to the live one.
 */
export const TEST_KEY_RULE = 'a test key cannot change what a live key created';

/**
 * contract §2: a record created with a live key (`createdBy`) is the live key's to change or delete;
 * `what` names it for the message ("this number", "this API key").
 */
export function assertMayChange(actor: Pick<Actor, 'mode'>, createdBy: KeyMode, what: string): void {
  if (actor.mode === 'test' && createdBy === 'live') {
    throw testKeyForbidden(`${TEST_KEY_RULE}: ${what} was created with a live key; use a live key to change or delete it`);
  }
}

/** spec: Authentication 2 — test keys bill nothing; contract §2: they never move money (billing writes, the sandbox wallet). */
export function assertMovesMoney(actor: Pick<Actor, 'mode'>): void {
  if (actor.mode === 'test') throw testKeyForbidden('test keys move no money: use a live key for billing changes and the sandbox wallet');
}

const SERVICE_WIDE_REASON = 'this sandbox act changes the service for every account on it, so only the root account of the local service may do it, with a live key';

/**
 * A sandbox act that changes the world for every account (the clock,
 * whose advance runs every account's renewals and charges; the payment provider) needs the root
 * account (the one the service made at its first start: no parent), acting as itself, with a live key.
 */
export function assertMayActServiceWide(caller: AccountRecord, mode: KeyMode, viaSubaccount: boolean): void {
  if (caller.parentId !== null) throw forbidden(`${SERVICE_WIDE_REASON}; a sub-account's key may not`);
  if (viaSubaccount) throw forbidden(`${SERVICE_WIDE_REASON}; send it without Service-Subaccount`);
  if (mode === 'test') throw testKeyForbidden(`${SERVICE_WIDE_REASON}; test keys move no money and change nothing service-wide`);
}
