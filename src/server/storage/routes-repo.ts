import type { CallRoute } from '../../api/schemas/routes.js';

/**
 * A route as stored: the API's CallRoute without `voicemailGreetingAudioUrl`, which is rendered from
 * the greeting's media name (its URL depends on the address the service is reached at).
 */
export type StoredRoute = Omit<CallRoute, 'voicemailGreetingAudioUrl'>;

/** A number's routing row: its route (null before the first PUT), its uploaded greeting, its version. */
export interface RouteRecord {
  numberId: string;
  accountId: string;
  route: StoredRoute | null;
  greetingMedia: string | null;
  /** Raised by every change; 0 for a number that never had a row. */
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface RoutesRepo {
  get(numberId: string): Promise<RouteRecord | undefined>;
  /** The rows of these numbers (one query for a page of numbers). */
  getMany(numberIds: readonly string[]): Promise<Map<string, RouteRecord>>;
  /** Every greeting file name a row records: the media store serves these and no others. */
  greetingMediaNames(): Promise<string[]>;
  /** Inserts or replaces the number's row as given (the caller raised `version`). */
  save(r: RouteRecord): Promise<void>;
}

