// Columns of blocklist entries, shared by the blocked-numbers verbs.
export const BLOCKED_LIST_COLUMNS = ['id', 'phoneNumber', 'autoSuggested', 'reason', 'blockedCallCount', 'lastBlockedAt', 'createdAt'];
export const BLOCKED_COLUMNS = ['id', 'phoneNumber', 'autoSuggested', 'reason', 'blockedCallCount', 'lastBlockedAt', 'createdAt', 'updatedAt'];

/** The argument every verb but add takes. */
export const ENTRY_ARG = ['<entry>', 'blocklist entry id, or the blocked E.164 number'] as const;
