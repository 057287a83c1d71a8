// What the emails verbs print (contract §8: Email, its recipients and its timeline). Zod-free.
import type { ColumnDef } from '../../../output/columns.js';

export const EMAIL_COLUMNS = ['id', 'status', 'from', 'to', 'cc', 'bcc', 'subject', 'tags', 'externalRef', 'createdAt', 'updatedAt'];
// On a narrow terminal (output/table.ts GIVE_WAY): the recipients (wrapped, never cut) and the time
// stay, the sender goes first.
export const EMAIL_LIST_COLUMNS: ColumnDef[] = ['id', 'status', { field: 'from', keep: 30 }, { field: 'to', keep: 47, fit: 'wrap' }, 'subject', { field: 'createdAt', keep: 46 }];
export const RECIPIENT_COLUMNS = ['address', 'kind', 'status', 'openedAt', 'clickedAt', 'complainedAt', 'unsubscribedAt'];
export const TIMELINE_COLUMNS = ['occurredAt', 'type', 'recipient', 'recipientKind', 'status', 'detail'];
export const MAILBOX_COLUMNS = ['from', 'to', 'subject', 'text'];

/** contract §8: a recipient's final deliveries; `deferred` is retried, `suppressed` was never sent. */
export const FINAL_RECIPIENT_STATUSES: ReadonlySet<string> = new Set(['delivered', 'bounced', 'failed']);
