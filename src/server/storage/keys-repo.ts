import type { Page } from '../../api/schemas/page.js';
import type { AccountRecord } from './accounts-repo.js';

export interface KeyRecord {
  id: string;
  accountId: string;
  name: string;
  mode: 'live' | 'test';
  prefix: string;
  hash: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface KeysRepo {
  insert(k: KeyRecord): Promise<void>;
  findByHash(hash: string): Promise<KeyRecord | undefined>;
  /**
   * The key with this hash and the account it belongs to, read together (every request
   * authenticates with them: one statement on PostgreSQL instead of a transaction of four).
   */
  findWithAccount(hash: string): Promise<{ key: KeyRecord; account: AccountRecord | undefined } | undefined>;
  /** Every key, oldest first (a reset that keeps keys copies them all). */
  all(): Promise<KeyRecord[]>;
  /** Removes the key with this hash, whatever its account (a bootstrap key re-minted for another account). */
  deleteByHash(hash: string): Promise<void>;
  get(accountId: string, id: string): Promise<KeyRecord | undefined>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<KeyRecord>>;
  /**
   * Sets the key's last use to `at` unless it is that recent already. Replicas: a
   * request that finds another writing it leaves it to that one (the value is a minute's
   * resolution; any of them will do), never waiting for it nor running again for it.
   */
  markUsed(id: string, at: number): Promise<void>;
  revoke(id: string, at: number): Promise<void>;
}

