/** The key the service clock is saved under as an advance moves it (restored at start). */
export const CLOCK_STATE_KEY = 'clock';

/** Small key → JSON values the service keeps about itself (the clock). */
export interface ServiceStateRepo {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

