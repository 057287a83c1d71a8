// contract §7 (ports): the simulated number-portability registry and losing carriers. Deterministic:
// the same number or request always gets the same answer, so a sandbox user can cause every outcome.
//
// Portability (`POST /v1/ports/check`, checked again on `POST /v1/ports`), first rule that applies:
//   1. not a NANP number (+1 and 10 digits)          → "only US and Canadian (+1) numbers can be ported"
//   2. a reserved or fictional number (500-555-xxxx, NXX-555-01xx) → "reserved number: no carrier holds it"
//   3. a number in this service's own inventory      → "not assigned to another carrier: buy it with POST /v1/numbers/buy"
//   4. an area code no carrier serves (not in the area-code table, not toll-free)
//                                                    → "no carrier serves this area code"
//   5. line number 9900-9999 (the last four digits start with 99)
//                                                    → "the losing carrier does not support port-out"
//   otherwise portable (toll-free numbers included). Whether the number is already on this service or
//   in another open port is the service's own knowledge, checked by the domain (domain/ports.ts).
//
// The losing carrier's verdict on a submitted port (24 h after submission, contract §7): rejected
// when `accountNumber` is REJECTED_ACCOUNT_NUMBER ("account number does not match the losing
// carrier's records"), else approved with an FOC date PORT_TIMINGS.focDateAfterSecs later.

import { AREA_CODES, TOLL_FREE_PREFIXES } from './area-codes.js';
import { isInInventory, isReservedNumber } from './number-inventory.js';
import { ACCOUNT_MISMATCH_REASON, NOT_PORTABLE, REJECTED_ACCOUNT_NUMBER } from '../../api/values/registration.js';

export interface Portability {
  portable: boolean;
  /** Why not, null when portable. */
  reason: string | null;
}

const NANP = /^\+1(\d{3})\d{7}$/;

/** The registry's answer for one E.164 number (rules 1-5 above). */
export function registryPortability(e164: string): Portability {
  const m = NANP.exec(e164);
  if (!m) return { portable: false, reason: NOT_PORTABLE.notNanp };
  if (isReservedNumber(e164)) return { portable: false, reason: NOT_PORTABLE.reserved };
  if (isInInventory(e164)) return { portable: false, reason: NOT_PORTABLE.ourInventory };
  const prefix = m[1]!;
  if (!TOLL_FREE_PREFIXES.includes(prefix) && !AREA_CODES.has(prefix)) return { portable: false, reason: NOT_PORTABLE.unknownAreaCode };
  if (e164.slice(-4).startsWith('99')) return { portable: false, reason: NOT_PORTABLE.noPortOut };
  return { portable: true, reason: null };
}

export type PortVerdict = { approved: true } | { approved: false; reason: string };

/** The losing carrier's verdict on a submitted port request. */
export function losingCarrierVerdict(request: { accountNumber: string }): PortVerdict {
  if (request.accountNumber === REJECTED_ACCOUNT_NUMBER) return { approved: false, reason: ACCOUNT_MISMATCH_REASON };
  return { approved: true };
}

/** What a ported number is on this service: its type, where it is, and what it can do. */
export function portedNumberProfile(e164: string): { type: 'local' | 'tollfree'; locality: string | null; region: string | null } {
  const prefix = e164.slice(2, 5);
  if (TOLL_FREE_PREFIXES.includes(prefix)) return { type: 'tollfree', locality: null, region: null };
  const area = AREA_CODES.get(prefix);
  return { type: 'local', locality: area?.locality ?? null, region: area?.region ?? null };
}
