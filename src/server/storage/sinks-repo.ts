// contract §10 (extension, local service only): sinks, webhook endpoints the service serves itself
// (`/sinks/{id}`), and the requests each one received. A sink belongs to its endpoint: deleting the
// endpoint deletes the sink and what it kept. A sink keeps its newest requests only (SINK_LIMITS),
// numbered from 1 in the order they were kept (`seq`, the position its requests are paged by).

export interface SinkRecord {
  id: string;
  accountId: string;
  endpointId: string;
  /** The URL its endpoint was made with: the service's own address and `/sinks/{id}`. */
  url: string;
  respondStatus: number;
  /** Attempts of each event answered 500 before `respondStatus`. */
  failFirst: number;
  delayMs: number;
  /** Requests received so far: the position of the newest. */
  received: number;
  createdAt: number;
}

export interface SinkRequestRecord {
  sinkId: string;
  /** Its position among the sink's requests (1 for the first received). */
  seq: number;
  id: string;
  receivedAt: number;
  /** From the `Service-Event-Id`, `Service-Event-Type` and `Service-Delivery-Attempt` headers, when sent. */
  eventId: string | null;
  eventType: string | null;
  attempt: number | null;
  /** Lower-case names; credentials redacted. */
  headers: Record<string, string>;
  /** The raw body (its first SINK_LIMITS.keptBodyBytes). */
  body: string;
  signatureValid: boolean;
  /** The status it was answered; null when the client went away before the answer. */
  answeredStatus: number | null;
}

export interface SinkRequestRange {
  afterSeq?: number;
  beforeSeq?: number;
  order: 'asc' | 'desc';
  limit: number;
}

export interface SinksRepo {
  insert(s: Omit<SinkRecord, 'received'>): Promise<void>;
  /** Scoped to the account: another account's sink is as good as missing. */
  get(accountId: string, id: string): Promise<SinkRecord | undefined>;
  /** Unscoped: the public `/sinks/{id}` route knows only the id. */
  getById(id: string): Promise<SinkRecord | undefined>;
  /** The sink an endpoint belongs to, if any. */
  byEndpoint(endpointId: string): Promise<SinkRecord | undefined>;
  /** Every sink of the account, newest first (bounded: each is one of its endpoints). */
  listForAccount(accountId: string): Promise<SinkRecord[]>;
  /** How many of the requests the sink keeps name this event. */
  countForEvent(sinkId: string, eventId: string): Promise<number>;
  /**
   * The position of the sink's next request (one past its newest), taken: the sink's row stays locked
   * to the COMMIT, so one sink's requests are kept one after another and their positions become
   * visible in order (a reader following after a position misses none). 0 when the sink is gone.
   */
  nextPosition(sinkId: string): Promise<number>;
  /** Keeps a request at the position taken for it, and drops what falls out of the sink's newest `keep`. */
  keepAt(r: SinkRequestRecord, keep: number): Promise<void>;
  /** The status a kept request was answered (null: the client went away first). */
  setAnswered(sinkId: string, seq: number, status: number | null): Promise<void>;
  /** One page of the sink's kept requests by position: `limit + 1` rows tell whether there are more. */
  requestsPage(sinkId: string, r: SinkRequestRange): Promise<{ rows: SinkRequestRecord[]; hasMore: boolean }>;
}
