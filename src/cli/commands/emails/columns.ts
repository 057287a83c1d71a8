// What the emails verbs print (contract §8: Email, its recipients and its timeline). Zod-free.

export const EMAIL_COLUMNS = ['id', 'status', 'from', 'to', 'cc', 'bcc', 'subject', 'tags', 'externalRef', 'createdAt', 'updatedAt'];
export const EMAIL_LIST_COLUMNS = ['id', 'status', 'from', 'to', 'subject', 'createdAt'];
export const RECIPIENT_COLUMNS = ['address', 'kind', 'status', 'openedAt', 'clickedAt', 'complainedAt', 'unsubscribedAt'];
export const TIMELINE_COLUMNS = ['occurredAt', 'type', 'recipient', 'recipientKind', 'status', 'detail'];
export const MAILBOX_COLUMNS = ['from', 'to', 'subject', 'text'];

/** contract §8: a recipient's final deliveries; `deferred` is retried, `suppressed` was never sent. */
export const FINAL_RECIPIENT_STATUSES: ReadonlySet<string> = new Set(['delivered', 'bounced', 'failed']);
