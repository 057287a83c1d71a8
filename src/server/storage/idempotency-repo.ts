
/** A key's states: a request holding it, or its recorded answer (the table's CHECK list is tested against this). */
export const IDEMPOTENCY_STATES = ['in_flight', 'done'] as const;
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number];

export interface IdempotencyScope {
  accountId: string;
  /** contract §2: keys are scoped by the mode of the key that sent them too. */
  mode: 'live' | 'test';
  method: string;
  path: string;
  key: string;
}

export interface IdempotencyRecord {
  requestHash: string;
  state: IdempotencyState;
  status: number | null;
  body: string | null;
  createdAt: number;
  /**
   * When the answer was written, on the real clock in fractional milliseconds (`commitOnce`'s
   * `answerTime`): a request with the same key that arrived before it found the key in flight
   * (contract §2: 409), one that arrived after it replays the answer. Absent when unknown (a row
   * still in flight, or one a request that held its key recorded).
   */
  answeredAt?: number;
}

export interface IdempotencyRepo {
  get(s: IdempotencyScope): Promise<IdempotencyRecord | undefined>;
  /**
   * The key's record, for a write that records its answer under the key in this same transaction
   * (`commitOnce`: `claim`, the write, then `record`); undefined when there is none. An engine whose
   * writes run concurrently holds the key for this transaction as it looks (PostgreSQL: an in-flight
   * row, never visible to others, that `record` overwrites or the rollback removes), so a concurrent
   * duplicate waits for this transaction and then finds its answer, and concurrent requests with
   * different keys never conflict over the gap a read of an absent key would lock (at
   * SERIALIZABLE that read makes most concurrent sends fail and run again). With one writer at a time
   * (SQLite) it is `get`.
   */
  claim(s: IdempotencyScope, requestHash: string, now: number): Promise<IdempotencyRecord | undefined>;
  begin(s: IdempotencyScope, requestHash: string, now: number): Promise<void>;
  /**
   * Records a finished request's answer in one write, for a request that never held the key in
   * flight (its whole write ran in the transaction that records it: `commitOnce`). Replaces a row
   * past its 24 h only; the caller has checked there is no live one in the same transaction.
   */
  record(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number, answeredAt?: number): Promise<void>;
  /**
   * Records the answer of a request whose key no row holds, without looking first (`commitOnce`'s
   * first try: a look would be a statement per send). A row of the key, whatever its state or
   * age, fails it with UniqueConstraintError, here or when the transaction commits (an engine may
   * send it without waiting, as `record`): the caller then asks again with `claim`.
   */
  recordFirst(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number, answeredAt?: number): Promise<void>;
  complete(s: IdempotencyScope, status: number, body: string): Promise<void>;
  abandon(s: IdempotencyScope): Promise<void>;
  /** A fresh process owns no in-flight request: those rows were cut off by a crash and changed nothing. */
  clearInFlight(): Promise<void>;
  purgeOlderThan(cutoff: number): Promise<number>;
}

