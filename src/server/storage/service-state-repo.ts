/** The key the service clock is saved under as an advance moves it (restored at start). */
export const CLOCK_STATE_KEY = 'clock';

/** The simulated payment provider's fail-next flag (world/payments.ts): one for every process on the database. */
export const PAYMENTS_FAIL_NEXT_KEY = 'payments.failNext';

/**
 * contract §9: the chaos profiles, by scope (an account id, or the service-wide one): one for every
 * process on the database (domain/chaos-profiles.ts; each process holds them and re-reads them when
 * this key changes).
 */
export const CHAOS_STATE_KEY = 'chaos.profiles';

/**
 * cli.md "Calls as tests": the last run's coverage of a number's tests, under this prefix and the
 * number's id (domain/voice/call-coverage.ts; the console's route graph marks it).
 */
export const CALL_COVERAGE_KEY_PREFIX = 'calls.coverage.';

/** Small key → JSON values the service keeps about itself (the clock, the payment provider's fail-next flag). */
export interface ServiceStateRepo {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

