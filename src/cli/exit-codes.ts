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
  service_unavailable: EXIT.unavailable,
  internal_error: EXIT.unavailable,
  payment_required: EXIT.payment,
  budget_exceeded: EXIT.payment,
  channel_unsupported: EXIT.unsupported,
  address_suggestion: EXIT.unsupported,
};

export const exitCodeForApiError = (code: string): number => BY_API_CODE[code] ?? EXIT.failure;

/** What each exit code means, for `svc --help`-adjacent docs (man EXIT STATUS): derived from the tables above. */
export function exitStatusLines(): { code: number; meaning: string }[] {
  const causes = (code: number) => Object.entries(BY_API_CODE).filter(([, c]) => c === code).map(([k]) => k);
  const meaning: Record<number, string> = {
    [EXIT.ok]: 'success',
    [EXIT.failure]: 'any other failure (a declined confirmation, a network error, an unknown API error)',
    [EXIT.usage]: `usage error: a bad flag or argument, or ${causes(EXIT.usage).join(', ')}`,
    [EXIT.auth]: causes(EXIT.auth).join(', '),
    [EXIT.notFound]: causes(EXIT.notFound).join(', '),
    [EXIT.conflict]: causes(EXIT.conflict).join(', '),
    [EXIT.unavailable]: `${causes(EXIT.unavailable).join(', ')}, after retries`,
    [EXIT.payment]: causes(EXIT.payment).join(', '),
    [EXIT.unsupported]: causes(EXIT.unsupported).join(', '),
    [EXIT.interrupted]: 'interrupted (Ctrl-C)',
  };
  return Object.values(EXIT).map((code) => ({ code, meaning: meaning[code]! }));
}
