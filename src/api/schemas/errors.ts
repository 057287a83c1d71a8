import { z } from 'zod';

// spec: Errors — every non-2xx response has this one envelope and the HTTP status matches the code.
export const ERROR_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  payment_required: 402,
  budget_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  // Extension: a request the service stopped waiting for (its headers or body did not
  // arrive within the server's bounds). Not in the spec's table; a client may send it again.
  request_timeout: 408,
  channel_unsupported: 422,
  address_suggestion: 422,
  rate_limited: 429,
  internal_error: 500,
  provider_error: 502,
  // Extension: the service cannot reach its database (PostgreSQL stopped, restarting, or cut off).
  // Not in the spec's table; answered with Retry-After. A write cut off at its commit may have been
  // done: a client sends it again with its Idempotency-Key, so it is done once.
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorDetailSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

/**
 * How many details an error lists at most. A body with 10,000 unknown fields would make a
 * 689 KB answer naming each one; past this many, one last detail (`path: []`, `omitted: N`) says
 * how many were left out. Fixing the first ones and sending again shows the next.
 */
export const MAX_ERROR_DETAILS = 100;

/** The last detail of a list cut at MAX_ERROR_DETAILS: how many more problems the request had. */
export interface OmittedDetails {
  path: [];
  message: string;
  omitted: number;
}

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z
        .unknown()
        .optional()
        .describe(
          `A validation_error's details are \`[{path, message}]\`, one per offending field, at most ${MAX_ERROR_DETAILS}: ` +
            'past that, one last detail `{path: [], message, omitted: N}` counts the problems not listed.',
        ),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
