// API key facts as plain values (no zod). spec: Authentication 2 — the key prefix names the mode.
export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];
export const KEY_PREFIX = { live: 'sk_live_', test: 'sk_test_' } as const;
/** A well-formed key: its mode's prefix and 32 base62 characters. */
export const KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{32}$/;

/**
 * A key as the CLI accepts it before asking the service: a mode's prefix and something after it.
 * Looser than KEY_PATTERN on purpose: the service, not the CLI, decides whether a key is valid.
 */
export const looksLikeApiKey = (key: string): boolean => Object.values(KEY_PREFIX).some((prefix) => key.startsWith(prefix) && /^\S+$/.test(key.slice(prefix.length)));
