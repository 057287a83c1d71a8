import type { KeyMode } from '../../api/values/keys.js';

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  url: string;
  /** `["*"]` for every event. */
  events: string[];
  description: string | null;
  secret: string;
  enabled: boolean;
  disabledAt: number | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  /** Service time of the first failed attempt of the current failing streak. */
  failingSince: number | null;
  lastSuccessAt: number | null;
  /** The mode of the key that created it; contract §2: a live endpoint (and its secret) is a live key's to change. */
  mode: KeyMode;
  createdAt: number;
  updatedAt: number;
}

/** What routing an event needs of an endpoint: which events, where, signed with what. */
export type EndpointRoute = Pick<WebhookEndpointRecord, 'id' | 'accountId' | 'url' | 'events' | 'secret' | 'createdAt'>;

/** What an attempt needs of its endpoint: its route, and whether it is still enabled. */
export type EndpointTarget = EndpointRoute & Pick<WebhookEndpointRecord, 'enabled' | 'disabledReason'>;

export type WebhookEndpointPatch = Partial<Pick<WebhookEndpointRecord, 'url' | 'events' | 'description' | 'secret' | 'enabled' | 'disabledAt' | 'disabledReason' | 'consecutiveFailures' | 'failingSince' | 'lastSuccessAt'>>;

export interface WebhookEndpointsRepo {
  insert(e: WebhookEndpointRecord): Promise<void>;
  /** Scoped to the account: another account's endpoint is as good as missing (spec: Authentication 6). */
  get(accountId: string, id: string): Promise<WebhookEndpointRecord | undefined>;
  /** Unscoped. */
  getById(id: string): Promise<WebhookEndpointRecord | undefined>;
  /**
   * Unscoped, for the delivery worker's every attempt: kept in memory like the routes below (reading
   * and parsing the row per attempt was 3.1 % of a delivery burst's profile), and cleared the same way.
   */
  targetById(id: string): Promise<EndpointTarget | undefined>;
  /** Every endpoint of the account, newest first (a bounded list). */
  listForAccount(accountId: string): Promise<WebhookEndpointRecord[]>;
  /** Every enabled endpoint of every account (a snapshot load settles which to trust). */
  listEnabled(): Promise<WebhookEndpointRecord[]>;
  countForAccount(accountId: string): Promise<number>;
  /**
   * The account's enabled endpoints, as routes, oldest first. Read for every event (the outbox, in
   * the event's transaction), so they are kept in memory per account (reading and parsing
   * them each time is 5.7 % of the service's time in a delivery burst). Only routing fields are given, and
   * only insert, update and delete change them; the streak counters (`recordOutcome`, written on
   * every attempt) are not part of a route and do not invalidate it.
   *
   * A write clears the cache, and until the transaction that wrote has ended (it may roll back) no
   * read fills it: better-sqlite3's transactions are synchronous, so by the next macrotask it has.
   */
  enabledForAccount(accountId: string): Promise<EndpointRoute[]>;
  update(id: string, patch: WebhookEndpointPatch, now: number): Promise<void>;
  /** Streak bookkeeping that must not bump updatedAt (it is not a change the user made). */
  recordOutcome(id: string, succeeded: boolean, at: number): Promise<void>;
  delete(id: string): Promise<void>;
}

