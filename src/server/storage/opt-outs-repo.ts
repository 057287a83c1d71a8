import type { Page } from '../../api/schemas/page.js';
import type { OptOutStatus } from '../../api/values/opt-outs.js';

// contract §4, "Opt-out keywords": who opted out of which of the account's numbers (migration 14).
// A lifted opt-out keeps its row (status 'lifted'); reads of "is this consumer opted out" and the
// list see the active ones.

export interface OptOutRecord {
  id: string;
  accountId: string;
  /** Null for the test sender (+15005550006), which is no number of the account. */
  numberId: string | null;
  /** The account's number the consumer opted out of. */
  from: string;
  /** The consumer. */
  phoneNumber: string;
  /** The word texted, upper case. */
  keyword: string;
  status: OptOutStatus;
  createdAt: number;
  liftedAt: number | null;
  liftedKeyword: string | null;
}

export interface OptOutFilters {
  /** The account's number. */
  from?: string;
  /** The consumer. */
  phoneNumber?: string;
}

export interface OptOutsRepo {
  /** The consumer's active opt-out of the account's number `from`, if any. */
  findActive(accountId: string, from: string, phoneNumber: string): Promise<OptOutRecord | undefined>;
  insert(o: OptOutRecord): Promise<void>;
  /** Marks an active opt-out lifted; returns whether it was active. */
  lift(id: string, keyword: string, at: number): Promise<boolean>;
  /** The active opt-outs, newest first, keyset-paged (contract §2). */
  list(accountId: string, f: OptOutFilters, limit: number, cursor?: string): Promise<Page<OptOutRecord>>;
}

