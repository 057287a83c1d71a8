// API key facts as plain values (no zod). spec: Authentication 2 — the key prefix names the mode.
export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];
export const KEY_PREFIX = { live: 'sk_live_', test: 'sk_test_' } as const;
/** What follows a key's prefix: base62 letters and digits, this many. */
export const KEY_SECRET_LENGTH = 32;
/** A well-formed key: its mode's prefix and KEY_SECRET_LENGTH base62 characters. */
export const KEY_PATTERN = new RegExp(`^sk_(live|test)_[0-9A-Za-z]{${KEY_SECRET_LENGTH}}$`);

/**
 * What is wrong with a key a person gave (at a prompt, on stdin), in words about the key itself,
 * never its characters (a mistyped key is still mostly a secret); undefined for a well-formed key.
 * The service would refuse it as a malformed Authorization header, which is not what they typed.
 */
export function apiKeyProblem(key: string): string | undefined {
  if (KEY_PATTERN.test(key)) return undefined;
  const prefix = Object.values(KEY_PREFIX).find((p) => key.startsWith(p));
  if (!prefix) return `it does not start with ${KEY_PREFIX.live} or ${KEY_PREFIX.test}`;
  const rest = key.slice(prefix.length);
  const expected = `after ${prefix} come ${KEY_SECRET_LENGTH} letters and digits`;
  if (/[^0-9A-Za-z]/.test(rest)) return `${expected}, and this one has ${/\s/.test(rest) ? 'a space' : 'a character other than a letter or digit'} among them`;
  return `${expected}; this one has ${rest.length}`;
}

/** A key's mode, read from its prefix; undefined for anything else. */
export const keyModeOf = (key: string | undefined): (typeof KEY_MODES)[number] | undefined =>
  KEY_MODES.find((mode) => key?.startsWith(KEY_PREFIX[mode]));

/**
 * contract §2: the detail path of a refusal caused by the key's mode (a test key moving money or
 * minting a live key): the credential is the field at fault, so a client can tell this 403 from the
 * others (a suspended account, a sub-account header) and say which key to use instead.
 */
export const KEY_MODE_REFUSAL_PATH = ['headers', 'authorization'] as const;
