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

/** A key's mode, read from its prefix; undefined for anything else. */
export const keyModeOf = (key: string | undefined): (typeof KEY_MODES)[number] | undefined =>
  KEY_MODES.find((mode) => key?.startsWith(KEY_PREFIX[mode]));

/**
 * contract §2: the detail path of a refusal caused by the key's mode (a test key moving money or
 * minting a live key): the credential is the field at fault, so a client can tell this 403 from the
 * others (a suspended account, a sub-account header) and say which key to use instead.
 */
export const KEY_MODE_REFUSAL_PATH = ['headers', 'authorization'] as const;
