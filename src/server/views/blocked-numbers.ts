import { iso, isoOrNull } from '../clock.js';
import type { BlockedNumberRecord } from '../storage/blocked-numbers-repo.js';
import type { BlockedNumber } from '../../api/schemas/blocked-numbers.js';

// Records → API shapes for blocked numbers (spec: Blocked number). Rules for reads: views/README.md.

export const blockedNumberView = (e: BlockedNumberRecord): BlockedNumber => ({
  id: e.id,
  tenantId: e.accountId,
  phoneNumber: e.phoneNumber,
  reason: e.reason,
  autoSuggested: e.autoSuggested,
  blockedCallCount: e.blockedCallCount,
  lastBlockedAt: isoOrNull(e.lastBlockedAt),
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
});
