// Columns of blocklist entries, shared by the blocked-numbers verbs.
// The number first and the (long, uuid) id last: every verb takes the number, and a narrow terminal
// drops columns from the right.
export const BLOCKED_LIST_COLUMNS = ['phoneNumber', 'autoSuggested', 'blockedCallCount', 'reason', 'lastBlockedAt', 'id'];
export const BLOCKED_COLUMNS = ['id', 'phoneNumber', 'autoSuggested', 'reason', 'blockedCallCount', 'lastBlockedAt', 'createdAt', 'updatedAt'];

