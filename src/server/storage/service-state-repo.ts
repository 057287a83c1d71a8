/** The key the service clock is saved under as an advance moves it (restored at start). */
export const CLOCK_STATE_KEY = 'clock';

/** The simulated payment provider's fail-next flag (world/payments.ts): one for every process on the database. */
export const PAYMENTS_FAIL_NEXT_KEY = 'payments.failNext';

/** Small key → JSON values the service keeps about itself (the clock, the payment provider's fail-next flag). */
export interface ServiceStateRepo {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

