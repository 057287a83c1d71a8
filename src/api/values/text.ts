// Characters request text may not hold. Zod-free: the service's validator, the schemas
// and the hosted form read the same facts.

/**
 * NUL, or a UTF-16 surrogate without its pair. Neither is text: NUL ends a C string (a log line, a
 * terminal, SQLite's C API), and a lone surrogate cannot be written as UTF-8 (it would be stored or
 * sent as U+FFFD, not what was given). Refused in every string of every request, keys included.
 */
export const NUL_OR_LONE_SURROGATE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string holding NUL_OR_LONE_SURROGATE was refused (a detail's message). */
export function badTextMessage(s: string): string {
  return s.includes('\u0000') ? 'must not contain NUL (U+0000)' : 'must not contain an unpaired UTF-16 surrogate (text that is not valid Unicode)';
}

/**
 * Decision: Unicode direction overrides, embeddings and isolates (U+202A–U+202E,
 * U+2066–U+2069) reorder the text after them: in a name or label printed in a table or a list they
 * make one value read as another ("Trojan Source"). Names and labels refuse them
 * (`api/schemas/common.ts` `DisplayName`); the text of a conversation (message, email and voicemail
 * bodies, notes) keeps them, since mixed-direction writing may need them. The direction MARKS
 * (U+200E, U+200F, U+061C) change no order and are allowed everywhere.
 */
export const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
export const NO_DIRECTION_CONTROLS = /^[^\u202A-\u202E\u2066-\u2069]*$/;
export const DIRECTION_CONTROLS_MESSAGE = 'must not contain Unicode direction overrides or isolates (U+202A to U+202E, U+2066 to U+2069)';
