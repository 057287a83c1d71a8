import type { Page } from '../../api/schemas/page.js';
import type { KeyMode } from '../../api/values/keys.js';

// spec: Blocked number. One row per account and number (UNIQUE in migration 6).

export interface BlockedNumberRecord {
  id: string;
  accountId: string;
  phoneNumber: string;
  reason: string | null;
  autoSuggested: boolean;
  blockedCallCount: number;
  lastBlockedAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** contract §2: the mode of the key that added it (a suggestion: live when a live call counted toward it; migration 17). */
  mode: KeyMode;
}

export interface BlockedNumbersRepo {
  /** spec: Blocked number — `blockedCallCount` and `lastBlockedAt` count the inbound calls this entry rejected. */
  recordBlockedCall(id: string, at: number): Promise<void>;
  /**
   * Adds an entry unless the account already has one for the number (the UNIQUE index decides, so two
   * writers racing cannot both add it). True when this call inserted it.
   */
  insertIfAbsent(e: BlockedNumberRecord): Promise<boolean>;
  /** The account's entry with this id (another account's entry is not found). */
  get(accountId: string, id: string): Promise<BlockedNumberRecord | undefined>;
  /** Newest first; `autoSuggested` keeps only suggestions (true) or confirmed entries (false). */
  list(accountId: string, q: { limit: number; cursor?: string; autoSuggested?: boolean }): Promise<Page<BlockedNumberRecord>>;
  /** Writes an entry's editable fields (reason, autoSuggested) and updatedAt. */
  update(e: BlockedNumberRecord): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * contract §6 (the auto-suggestion rule): how many of the account's inbound calls from this number
   * started at or after `sinceMs` and ended unanswered (status `missed`) or answered and shorter
   * than `shortCallSecs`. Blocked, failed and still-running calls do not count. `live`: whether a
   * call placed with a live key is among them.
   */
  countShortOrUnansweredInbound(accountId: string, fromNumber: string, sinceMs: number, shortCallSecs: number): Promise<{ n: number; live: boolean }>;
  /** The account's entry for this number (confirmed or suggested), if any: what the call engine's blocklist check reads. */
  findByNumber(accountId: string, phoneNumber: string): Promise<BlockedNumberRecord | undefined>;
}

