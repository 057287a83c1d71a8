import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string; 62^n combinations (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

// contract §2: a type prefix and a random part; where the spec says uuid, a UUID.
export type IdPrefix =
  | 'msg' | 'num' | 'dst' | 'rte' | 'call' | 'rec' | 'vm' | 'port' | 'dev' | 'dom' | 'eml' | 'we'
  | 'whd' | 'evt' | 'key' | 'job' | 'chg' | 'lead'
  // Decision (contract §2 lists no prefix for it): a port's document (loa, bill).
  | 'pdoc'
  // Decision (contract §8 lists no prefix for it): a message in the mail sandbox.
  | 'mbx'
  // Decision (contract §11 lists no prefix for them): a ledger row and a hold on a wallet.
  | 'led' | 'hold';

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomBase62(20)}`;
export const newUuid = (): string => randomUUID();
