import { z } from 'zod';

// spec: Global conventions 3 — phone numbers are E.164 (the pattern is a zod-free value).
import { E164_PATTERN } from '../values/phone.js';
import { DIRECTION_CONTROLS_MESSAGE, NO_DIRECTION_CONTROLS } from '../values/text.js';
export { E164_PATTERN };
export const E164 = z.string().regex(E164_PATTERN, 'must be an E.164 phone number like +14155550123');

// spec: Global conventions 4 — timestamps are ISO 8601 strings.
export const Timestamp = z.iso.datetime({ offset: true });
export const NullableTimestamp = Timestamp.nullable();

/**
 * A name or label people read in tables and lists (key and sub-account names, number and device
 * labels, route labels, endpoint descriptions): Unicode direction overrides and isolates are refused
 * there (decision: `api/values/text.ts` says why; conversation text keeps them).
 */
export const DisplayName = (s: z.ZodString): z.ZodString => s.regex(NO_DIRECTION_CONTROLS, DIRECTION_CONTROLS_MESSAGE);

export const IdParams = z.strictObject({ id: z.string().min(1).max(200) });

// contract §2: delete returns 204 with no body.
export const NoContent = z.null();
