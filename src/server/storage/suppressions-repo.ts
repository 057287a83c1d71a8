import type { Page } from '../../api/schemas/page.js';
import type { SuppressionReason } from '../../api/values/email.js';

// contract §8: the account's suppression list, one row per address (lower-case).

export interface SuppressionRecord {
  accountId: string;
  address: string;
  reason: SuppressionReason;
  emailId: string | null;
  createdAt: number;
}

export interface SuppressionsRepo {
  find(accountId: string, address: string): Promise<SuppressionRecord | undefined>;
  /**
   * Suppresses an address. The first reason stays, except that a complaint replaces any other
   * (complaints are not removable). Returns whether the list changed.
   */
  add(s: SuppressionRecord): Promise<boolean>;
  remove(accountId: string, address: string): Promise<boolean>;
  /** Newest first, keyset-paged (contract §2). */
  list(accountId: string, limit: number, cursor?: string, reason?: SuppressionReason): Promise<Page<SuppressionRecord>>;
}

