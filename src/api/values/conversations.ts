// Conversation facts as plain values (no zod). contract §4: a thread holds the latest `limit`
// messages, default 50, max 200.
export const THREAD_LIMIT_DEFAULT = 50;
export const THREAD_LIMIT_MAX = 200;
