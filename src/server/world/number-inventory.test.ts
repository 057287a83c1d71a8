import { describe, expect, it } from 'vitest';
import {
  INVENTORY_SIZE,
  areaCodesForLocality,
  isInInventory,
  isReservedNumber,
  searchInventory,
  type AvailableNumber,
  type InventoryQuery,
} from './number-inventory.js';
import { AREA_CODES, TOLL_FREE_PREFIXES } from './area-codes.js';
import { LOCAL_MONTHLY_CENTS, PRICES, TOLLFREE_MONTHLY_CENTS, emailChargeCents } from '../../api/values/prices.js';

const E164_NANP = /^\+1[2-9]\d{2}[2-9]\d{6}$/;
const none = async (): Promise<boolean> => false;
const search = (q: Partial<InventoryQuery>, isTaken: (e164: string) => Promise<boolean> = none): Promise<AvailableNumber[]> =>
  searchInventory({ type: 'local', limit: 20, ...q }, isTaken);
const numbers = (r: AvailableNumber[]): string[] => r.map((n) => n.phoneNumber);

describe('area code table', () => {
  it('holds at least 300 geographic area codes, none toll-free or N11', () => {
    expect(AREA_CODES.size).toBeGreaterThanOrEqual(300);
    for (const [code, info] of AREA_CODES) {
      expect(code).toMatch(/^[2-9]\d{2}$/);
      expect(code.slice(1)).not.toBe('11');
      expect(TOLL_FREE_PREFIXES).not.toContain(code);
      expect(info.locality.length).toBeGreaterThan(0);
      expect(info.region).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('knows the well-known ones', () => {
    expect(AREA_CODES.get('212')).toEqual({ locality: 'New York', region: 'NY', country: 'US' });
    expect(AREA_CODES.get('512')).toEqual({ locality: 'Austin', region: 'TX', country: 'US' });
    expect(AREA_CODES.get('416')).toEqual({ locality: 'Toronto', region: 'ON', country: 'CA' });
    expect(AREA_CODES.get('604')).toEqual({ locality: 'Vancouver', region: 'BC', country: 'CA' });
    expect(AREA_CODES.get('202')?.region).toBe('DC');
  });
});

describe('searchInventory', () => {
  it('answers the same query with the same numbers', async () => {
    const a = await search({ areaCode: '415', limit: 30 });
    const b = await search({ areaCode: '415', limit: 30 });
    expect(a).toHaveLength(30);
    expect(b).toEqual(a);
    // A caller mutating a result cannot change the inventory.
    a[0].capabilities.sms = !a[0].capabilities.sms;
    a[0].phoneNumber = '+19999999999';
    expect(await search({ areaCode: '415', limit: 30 })).toEqual(b);
  });

  it('differs between area codes and stays inside the area code', async () => {
    const sf = await search({ areaCode: '415' });
    const ny = await search({ areaCode: '212' });
    expect(sf.length).toBeGreaterThan(0);
    expect(ny.length).toBeGreaterThan(0);
    expect(numbers(sf).every((n) => n.startsWith('+1415'))).toBe(true);
    expect(numbers(ny).every((n) => n.startsWith('+1212'))).toBe(true);
    expect(sf.every((n) => n.locality === 'San Francisco' && n.region === 'CA' && n.type === 'local')).toBe(true);
  });

  it('has a fixed pool of distinct numbers per area code', async () => {
    const all = await search({ areaCode: '303', limit: 10_000 });
    expect(all).toHaveLength(INVENTORY_SIZE);
    expect(new Set(numbers(all)).size).toBe(INVENTORY_SIZE);
  });

  it('never returns a taken number and still fills up to the limit', async () => {
    const first = await search({ areaCode: '617', limit: 10 });
    const taken = new Set(numbers(first).slice(0, 5));
    const again = await search({ areaCode: '617', limit: 10 }, async (e) => taken.has(e));
    expect(again).toHaveLength(10);
    for (const n of again) expect(taken.has(n.phoneNumber)).toBe(false);
    // The untaken ones keep their place, then the next numbers of the pool fill in.
    expect(numbers(again).slice(0, 5)).toEqual(numbers(first).slice(5));
    expect(numbers(again).slice(5)).toEqual(numbers(await search({ areaCode: '617', limit: 15 })).slice(10));
  });

  it('returns fewer than the limit only when the pool is exhausted', async () => {
    const all = numbers(await search({ areaCode: '617', limit: 10_000 }));
    const taken = new Set(all.slice(0, INVENTORY_SIZE - 3));
    expect(numbers(await search({ areaCode: '617', limit: 10 }, async (e) => taken.has(e)))).toEqual(all.slice(-3));
    expect(await search({ areaCode: '617', limit: 0 })).toEqual([]);
  });

  it('filters with contains anywhere in the 10 national digits', async () => {
    const pool = await search({ areaCode: '312', limit: 10_000 });
    for (const contains of ['7', '42', '312', '0']) {
      const r = await search({ areaCode: '312', contains, limit: 10_000 });
      const expected = pool.filter((n) => n.phoneNumber.slice(2).includes(contains));
      expect(r).toEqual(expected);
      expect(r.length).toBeGreaterThan(0);
      expect(r.length).toBeLessThanOrEqual(pool.length);
    }
    // The area code itself counts: every 312 number contains "312".
    expect(await search({ areaCode: '312', contains: '312', limit: 10_000 })).toHaveLength(INVENTORY_SIZE);
    // Seven digits pick out one number; the country code is not part of the match.
    const target = pool[17].phoneNumber;
    expect(numbers(await search({ areaCode: '312', contains: target.slice(-7), limit: 10_000 }))).toContain(target);
    expect(await search({ areaCode: '312', contains: '1312', limit: 10_000 })).toEqual(
      pool.filter((n) => n.phoneNumber.slice(2).includes('1312')),
    );
  });

  it('filters by capabilities, and the pool has numbers lacking sms or mms', async () => {
    const pool = await search({ areaCode: '206', limit: 10_000 });
    const voiceOnly = pool.filter((n) => !n.capabilities.sms);
    const noMms = pool.filter((n) => !n.capabilities.mms);
    expect(voiceOnly.length).toBeGreaterThan(0);
    expect(noMms.length).toBeGreaterThan(0);
    expect(pool.filter((n) => n.capabilities.sms && n.capabilities.mms && n.capabilities.voice).length).toBeGreaterThan(
      pool.length / 2,
    );

    const sms = await search({ areaCode: '206', capabilities: ['sms'], limit: 10_000 });
    expect(sms).toEqual(pool.filter((n) => n.capabilities.sms));
    const mmsVoice = await search({ areaCode: '206', capabilities: ['mms', 'voice'], limit: 10_000 });
    expect(mmsVoice).toEqual(pool.filter((n) => n.capabilities.mms && n.capabilities.voice));
    expect(mmsVoice.length).toBeLessThan(pool.length);
  });

  it('every area code offers voice-only and mms-less numbers (channel_unsupported is reachable)', async () => {
    for (const code of AREA_CODES.keys()) {
      const pool = await search({ areaCode: code, limit: 10_000 });
      expect(pool.some((n) => !n.capabilities.sms)).toBe(true);
      expect(pool.some((n) => n.capabilities.sms && !n.capabilities.mms)).toBe(true);
    }
  });

  it('sells toll-free numbers only from the contract prefixes', async () => {
    const r = await searchInventory({ type: 'tollfree', limit: 70 }, none);
    expect(r).toHaveLength(70);
    const prefixes = new Set(r.map((n) => n.phoneNumber.slice(2, 5)));
    expect([...prefixes].sort()).toEqual([...TOLL_FREE_PREFIXES].sort());
    for (const n of r) {
      expect(n.type).toBe('tollfree');
      expect(n.monthlyPriceCents).toBe(TOLLFREE_MONTHLY_CENTS);
      expect(n.locality).toBeNull();
      expect(n.region).toBeNull();
      expect(n.capabilities.sms && n.capabilities.voice).toBe(true);
    }
    expect(r.some((n) => n.capabilities.mms)).toBe(true);
    expect(r.some((n) => !n.capabilities.mms)).toBe(true);

    const only888 = await searchInventory({ type: 'tollfree', areaCode: '888', limit: 20 }, none);
    expect(only888).toHaveLength(20);
    expect(only888.every((n) => n.phoneNumber.startsWith('+1888'))).toBe(true);
    expect(await searchInventory({ type: 'tollfree', areaCode: '512', limit: 20 }, none)).toEqual([]);
    expect(await searchInventory({ type: 'tollfree', areaCode: '899', limit: 20 }, none)).toEqual([]);
    // And a toll-free prefix is not a local area code.
    expect(await search({ areaCode: '800' })).toEqual([]);
  });

  it('prices local numbers from the price table', async () => {
    expect(LOCAL_MONTHLY_CENTS).toBe(115);
    expect(TOLLFREE_MONTHLY_CENTS).toBe(215);
    expect(PRICES.campaignRegistration).toBe(1500);
    expect(emailChargeCents(0)).toBe(0);
    expect(emailChargeCents(10)).toBe(1);
    expect(emailChargeCents(11)).toBe(2);
    const atlanta = await search({ areaCode: '404' });
    expect(atlanta.length).toBeGreaterThan(0);
    expect(atlanta.every((n) => n.monthlyPriceCents === 115)).toBe(true);
  });

  it('finds the area codes of a locality, case-insensitively', async () => {
    expect(areaCodesForLocality('Austin')).toEqual(['512', '737']);
    expect(areaCodesForLocality('  aUsTiN ')).toEqual(['512', '737']);
    expect(areaCodesForLocality('Austin, TX')).toEqual(['512', '737']);
    expect(areaCodesForLocality('Austin, CA')).toEqual([]);
    expect(areaCodesForLocality('New York')).toEqual(expect.arrayContaining(['212', '332', '347', '646', '718', '917', '929']));
    expect(areaCodesForLocality('Atlantis')).toEqual([]);

    const r = await search({ locality: 'austin', limit: 40 });
    expect(r).toHaveLength(40);
    const codes = new Set(r.map((n) => n.phoneNumber.slice(2, 5)));
    expect([...codes].sort()).toEqual(['512', '737']);
    expect(r.every((n) => n.locality === 'Austin' && n.region === 'TX')).toBe(true);
    expect(await search({ locality: 'Atlantis' })).toEqual([]);
  });

  it('combines areaCode and locality, and needs one of them for local numbers', async () => {
    expect(await search({ areaCode: '737', locality: 'Austin' })).toEqual(await search({ areaCode: '737' }));
    expect(await search({ areaCode: '212', locality: 'Austin' })).toEqual([]);
    expect(await search({})).toEqual([]);
    expect(await search({ areaCode: '999' })).toEqual([]);
  });

  it('only returns valid NANP numbers, never N11 exchanges or reserved numbers', async () => {
    const codes = [...AREA_CODES.keys()].filter((_, i) => i % 7 === 0);
    const all = [
      ...(await Promise.all(codes.map((areaCode) => search({ areaCode, limit: 10_000 })))).flat(),
      ...(await searchInventory({ type: 'tollfree', limit: 10_000 }, none)),
    ];
    expect(all.length).toBe((codes.length + TOLL_FREE_PREFIXES.length) * INVENTORY_SIZE);
    for (const n of all) {
      expect(n.phoneNumber).toMatch(E164_NANP);
      const national = n.phoneNumber.slice(2);
      expect(national.slice(4, 6)).not.toBe('11'); // exchange N11
      expect(national.slice(6, 7)).toMatch(/[2-9]/); // line NXXX
      expect(/^\d{3}55501\d{2}$/.test(national)).toBe(false);
      expect(isReservedNumber(n.phoneNumber)).toBe(false);
    }
  });
});

describe('isInInventory', () => {
  it('recognises every search result, with the same details', async () => {
    const results = [
      ...(await search({ areaCode: '512', limit: 50 })),
      ...(await search({ locality: 'Toronto', limit: 50 })),
      ...(await searchInventory({ type: 'tollfree', limit: 50 }, none)),
    ];
    for (const n of results) expect(isInInventory(n.phoneNumber)).toEqual(n);
  });

  it('agrees with the search for the whole pool, including taken numbers', async () => {
    const pool = await search({ areaCode: '718', limit: 10_000 });
    for (const n of pool) expect(isInInventory(n.phoneNumber)?.phoneNumber).toBe(n.phoneNumber);
  });

  it('rejects numbers the carrier does not sell', async () => {
    const pool = new Set(numbers(await search({ areaCode: '512', limit: 10_000 })));
    // A valid 512 number outside the pool.
    let outside = '';
    for (let i = 2_000_000; i < 2_001_000 && !outside; i++) {
      const candidate = `+1512${i}`;
      if (!pool.has(candidate)) outside = candidate;
    }
    expect(outside).toMatch(E164_NANP);
    expect(isInInventory(outside)).toBeUndefined();
    expect(isInInventory('+15005550006')).toBeUndefined();
    expect(isInInventory('+15005550001')).toBeUndefined();
    expect(isInInventory('+19995550123')).toBeUndefined(); // no such area code
    expect(isInInventory('+15125550123')).toBeUndefined(); // fictional 555-01XX
    expect(isInInventory('5125551234')).toBeUndefined();
    expect(isInInventory('+4420794600000')).toBeUndefined();
  });

  it('marks the sandbox magic numbers reserved', () => {
    expect(isReservedNumber('+15005550006')).toBe(true);
    expect(isReservedNumber('+15005550042')).toBe(true);
    expect(isReservedNumber('+12125550199')).toBe(true);
    expect(isReservedNumber('+12125550200')).toBe(false);
  });
});
