// cli.md "Output, errors and exit codes": the ONE table of exit codes.
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  unavailable: 6,
  payment: 7,
  unsupported: 8,
  interrupted: 130,
} as const;

const BY_API_CODE: Record<string, number> = {
  validation_error: EXIT.usage,
  unauthorized: EXIT.auth,
  forbidden: EXIT.auth,
  not_found: EXIT.notFound,
  conflict: EXIT.conflict,
  rate_limited: EXIT.unavailable,
  provider_error: EXIT.unavailable,
  internal_error: EXIT.unavailable,
  payment_required: EXIT.payment,
  budget_exceeded: EXIT.payment,
  channel_unsupported: EXIT.unsupported,
  address_suggestion: EXIT.unsupported,
};

export const exitCodeForApiError = (code: string): number => BY_API_CODE[code] ?? EXIT.failure;
