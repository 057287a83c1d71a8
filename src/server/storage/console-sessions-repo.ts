import type { ConsoleSessionKind } from '../../api/values/console.js';

/** A one-time console link or a console session; `hash` is the SHA-256 of its secret (never the secret). */
export interface ConsoleSessionRecord {
  hash: string;
  kind: ConsoleSessionKind;
  /** The key that minted the link: the session sees what it may, and ends when it is revoked. */
  keyId: string;
  /** The key's account. */
  accountId: string;
  /** The sub-account acted on (an agency key's context), or null for the key's own account. */
  subaccountId: string | null;
  /** The per-session token every state-changing form must carry. */
  csrf: string;
  /** Real time (wall-clock ms), unlike the service-clock times of other tables: a login ages in real time. */
  createdAt: number;
  expiresAt: number;
}

export interface ConsoleSessionsRepo {
  insert(s: ConsoleSessionRecord): Promise<void>;
  get(hash: string): Promise<ConsoleSessionRecord | undefined>;
  /** Removes one row (a link once exchanged, a session signed out); answers whether it was there. */
  delete(hash: string): Promise<boolean>;
  setSubaccount(hash: string, subaccountId: string | null): Promise<void>;
  /** Removes every row expired at `now`. */
  deleteExpired(now: number): Promise<void>;
}
