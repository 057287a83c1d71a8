import type { EmailStatus, RecipientStatus } from '../../../api/values/email.js';

// contract §8: the email's status follows its recipients that were not suppressed — `queued` until
// all were handed over, `sent` until each has a final delivery, then `delivered` (all delivered),
// `bounced` (all bounced), `failed` (all failed, or every recipient suppressed at send), else
// `partially_delivered`. Pure, so the accept path and the mail server agree.

/** Delivery outcomes that never change again. */
export const FINAL_RECIPIENT_STATUSES: readonly RecipientStatus[] = ['delivered', 'bounced', 'failed'];

export const isFinalRecipientStatus = (s: RecipientStatus): boolean => FINAL_RECIPIENT_STATUSES.includes(s);

export function aggregateEmailStatus(recipients: readonly RecipientStatus[]): EmailStatus {
  const live = recipients.filter((s) => s !== 'suppressed');
  if (live.length === 0) return 'failed';
  if (live.some((s) => s === 'queued')) return 'queued';
  if (!live.every(isFinalRecipientStatus)) return 'sent';
  if (live.every((s) => s === 'delivered')) return 'delivered';
  if (live.every((s) => s === 'bounced')) return 'bounced';
  if (live.every((s) => s === 'failed')) return 'failed';
  return 'partially_delivered';
}
