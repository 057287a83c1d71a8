import { iso } from '../clock.js';
import type { Suppression } from '../../api/schemas/email.js';
import type { SuppressionRecord } from '../storage/suppressions-repo.js';

// Records → the Suppression shape (contract §8: `{address, reason, emailId, createdAt}`).

export const suppressionView = (s: SuppressionRecord): Suppression => ({
  address: s.address,
  reason: s.reason,
  emailId: s.emailId,
  createdAt: iso(s.createdAt),
});
