// contract §5: the simulated carrier inventory. "Search draws from a simulated inventory:
// deterministic per area code, never a number that any account owns."
//
// Each area code (and each toll-free prefix) has a fixed pool of INVENTORY_SIZE numbers drawn from a
// PRNG seeded with a hash of the prefix: no Math.random, so the same query always answers the same
// numbers, and `isInInventory` recomputes membership from the same seed. Ownership is the caller's
// business: it passes `isTaken` and owned numbers are skipped.

import { AREA_CODES, TOLL_FREE_PREFIXES } from './area-codes.js';
import { LOCAL_MONTHLY_CENTS, TOLLFREE_MONTHLY_CENTS } from '../../api/values/prices.js';

export type NumberType = 'local' | 'tollfree';
export type Capability = 'sms' | 'mms' | 'voice';

export interface Capabilities {
  sms: boolean;
  mms: boolean;
  voice: boolean;
}

export interface AvailableNumber {
  phoneNumber: string;
  type: NumberType;
  capabilities: Capabilities;
  monthlyPriceCents: number;
  locality: string | null;
  region: string | null;
}

export interface InventoryQuery {
  type: NumberType;
  areaCode?: string;
  locality?: string;
  /** 1 to 7 digits, matched anywhere in the 10 national digits (validated by the caller). */
  contains?: string;
  capabilities?: Capability[];
  limit: number;
}

/** Numbers in the pool of one area code or toll-free prefix. */
export const INVENTORY_SIZE = 200;

/** The magic sandbox sender (contract §4): never sold. */
const MAGIC_FROM = '+15005550006';

/** Never sold: the sandbox's magic numbers and fictional/reserved blocks. */
export function isReservedNumber(e164: string): boolean {
  if (e164 === MAGIC_FROM) return true;
  if (/^\+1500555\d{4}$/.test(e164)) return true; // 500-555-xxxx magic range (00xx included)
  if (/^\+1\d{3}55501\d{2}$/.test(e164)) return true; // NXX-555-01XX is reserved for fiction
  return false;
}

// --- deterministic PRNG -------------------------------------------------------------------------

/** FNV-1a, 32 bit. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, well-distributed 32-bit generator. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const digit = (rand: () => number, min: number): number => min + Math.floor(rand() * (10 - min));

// --- pools ----------------------------------------------------------------------------------------

const LOCAL_CAPS: readonly Capabilities[] = [
  { sms: true, mms: true, voice: true },
  { sms: false, mms: false, voice: true }, // voice only
  { sms: true, mms: false, voice: false }, // sms only
  { sms: true, mms: false, voice: true }, // no mms
];

function localCapabilities(roll: number): Capabilities {
  // 80% full, 10% voice only, 5% sms only, 5% sms+voice.
  if (roll < 0.8) return LOCAL_CAPS[0];
  if (roll < 0.9) return LOCAL_CAPS[1];
  if (roll < 0.95) return LOCAL_CAPS[2];
  return LOCAL_CAPS[3];
}

function tollfreeCapabilities(roll: number): Capabilities {
  // Toll-free always texts and talks; about half also carry MMS.
  return { sms: true, mms: roll < 0.5, voice: true };
}

const pools = new Map<string, readonly AvailableNumber[]>();

function isTollFreePrefix(prefix: string): boolean {
  return TOLL_FREE_PREFIXES.includes(prefix);
}

/** The pool of one area code or toll-free prefix, or [] when the carrier sells none there. */
function poolFor(prefix: string): readonly AvailableNumber[] {
  const cached = pools.get(prefix);
  if (cached) return cached;

  const tollfree = isTollFreePrefix(prefix);
  const area = tollfree ? undefined : AREA_CODES.get(prefix);
  if (!tollfree && !area) return [];

  const type: NumberType = tollfree ? 'tollfree' : 'local';
  const rand = prng(hash32(`svc-inventory:${type}:${prefix}`));
  const seen = new Set<string>();
  const pool: AvailableNumber[] = [];
  while (pool.length < INVENTORY_SIZE) {
    // Exchange NXX (N = 2-9), never an N11 service code; line NXXX as well.
    const exchange = `${digit(rand, 2)}${digit(rand, 0)}${digit(rand, 0)}`;
    const line = `${digit(rand, 2)}${digit(rand, 0)}${digit(rand, 0)}${digit(rand, 0)}`;
    const capsRoll = rand();
    if (exchange[1] === '1' && exchange[2] === '1') continue;
    const phoneNumber = `+1${prefix}${exchange}${line}`;
    if (seen.has(phoneNumber) || isReservedNumber(phoneNumber)) continue;
    seen.add(phoneNumber);
    pool.push(
      Object.freeze({
        phoneNumber,
        type,
        capabilities: Object.freeze(tollfree ? tollfreeCapabilities(capsRoll) : localCapabilities(capsRoll)),
        monthlyPriceCents: tollfree ? TOLLFREE_MONTHLY_CENTS : LOCAL_MONTHLY_CENTS,
        locality: area ? area.locality : null,
        region: area ? area.region : null,
      }),
    );
  }
  const frozen = Object.freeze(pool);
  pools.set(prefix, frozen);
  return frozen;
}

const copy = (n: AvailableNumber): AvailableNumber => ({ ...n, capabilities: { ...n.capabilities } });

// --- public API ---------------------------------------------------------------------------------

const normaliseLocality = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Area codes whose city matches `locality`, case-insensitively; `"Austin"` and `"Austin, TX"` both
 * work (the second also checks the state or province). Sorted ascending.
 */
export function areaCodesForLocality(locality: string): string[] {
  const wanted = normaliseLocality(locality);
  if (!wanted) return [];
  const out: string[] = [];
  for (const [code, info] of AREA_CODES) {
    const city = info.locality.toLowerCase();
    if (wanted === city || wanted === `${city}, ${info.region.toLowerCase()}`) out.push(code);
  }
  return out.sort();
}

/** Which prefixes a query draws from, in the order their pools are interleaved. */
function prefixesFor(query: InventoryQuery): string[] {
  const areaCode = query.areaCode?.trim();
  if (query.type === 'tollfree') {
    if (areaCode) return isTollFreePrefix(areaCode) ? [areaCode] : [];
    return [...TOLL_FREE_PREFIXES];
  }
  if (areaCode) {
    const info = AREA_CODES.get(areaCode);
    if (!info) return [];
    // Both given: they must agree (filters combine).
    if (query.locality !== undefined && !areaCodesForLocality(query.locality).includes(areaCode)) return [];
    return [areaCode];
  }
  if (query.locality !== undefined) return areaCodesForLocality(query.locality);
  return [];
}

/**
 * Search the simulated inventory. Deterministic: the same query and the same taken set give the
 * same answer. With several prefixes (a locality with overlays, or toll-free without a prefix) the
 * pools are interleaved round-robin. Taken numbers are skipped and the result still fills up to
 * `limit` while the pools last.
 */
export async function searchInventory(query: InventoryQuery, isTaken: (e164: string) => Promise<boolean>): Promise<AvailableNumber[]> {
  const limit = Math.max(0, Math.floor(query.limit));
  if (limit === 0) return [];
  const sources = prefixesFor(query).map(poolFor);
  const contains = query.contains ?? '';
  const wanted = query.capabilities ?? [];
  const results: AvailableNumber[] = [];
  for (let i = 0; i < INVENTORY_SIZE; i++) {
    for (const pool of sources) {
      const n = pool[i];
      if (!n) continue;
      if (contains && !n.phoneNumber.slice(2).includes(contains)) continue;
      if (!wanted.every((c) => n.capabilities[c])) continue;
      if (await isTaken(n.phoneNumber)) continue;
      results.push(copy(n));
      if (results.length >= limit) return results;
    }
  }
  return results;
}

/** The inventory entry for `e164`, or undefined when the carrier does not sell it (buy → 409). */
export function isInInventory(e164: string): AvailableNumber | undefined {
  const m = /^\+1(\d{3})\d{7}$/.exec(e164);
  if (!m || isReservedNumber(e164)) return undefined;
  const hit = poolFor(m[1]).find((n) => n.phoneNumber === e164);
  return hit ? copy(hit) : undefined;
}
