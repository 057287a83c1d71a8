
export interface EventRecord {
  seq: number;
  id: string;
  accountId: string;
  type: string;
  createdAt: number;
  /** The webhook body: the event's fields plus `id`, `type` and `createdAt` (spec: Events). */
  body: Record<string, unknown>;
}

export interface EventsRepo {
  /**
   * Appends an event to its account's feed; returns its feed position, or 0 where the engine gives
   * positions after the transaction commits (PostgreSQL: storage/postgres/feed-order.ts). Only
   * the feed's reads rely on positions; listeners re-read.
   */
  insert(e: Omit<EventRecord, 'seq'>): Promise<number>;
  /**
   * Several events of one account, their positions in the order given (a test send's `sent` and
   * `delivered`): in one statement where the engine can (PostgreSQL: one round trip, not one per event).
   */
  insertMany(events: ReadonlyArray<Omit<EventRecord, 'seq'>>): Promise<number[]>;
  /**
   * One page of the feed in seq order (spec: Events feed): `limit + 1` rows tell whether there are
   * more. `exact` types and `prefixes` (`message.` for `message.*`) are ORed.
   */
  feedPage(accountId: string, r: { afterSeq?: number; beforeSeq?: number; order: 'asc' | 'desc'; limit: number; exact: string[]; prefixes: string[] }): Promise<{ rows: EventRecord[]; hasMore: boolean }>;
  headSeq(accountId: string): Promise<number>;
  get(accountId: string, id: string): Promise<EventRecord | undefined>;
  listByType(accountId: string, type: string): Promise<EventRecord[]>;
  /** The account's events among `ids` that are in the feed (positioned), in feed order. */
  getMany(accountId: string, ids: readonly string[]): Promise<EventRecord[]>;
}

