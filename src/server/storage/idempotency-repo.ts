
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
}

export interface IdempotencyRepo {
  get(s: IdempotencyScope): Promise<IdempotencyRecord | undefined>;
  begin(s: IdempotencyScope, requestHash: string, now: number): Promise<void>;
  /**
   * Records a finished request's answer in one write, for a request that never held the key in
   * flight (its whole write ran in the transaction that records it: `commitOnce`). Replaces a row
   * past its 24 h only; the caller has checked there is no live one in the same transaction.
   */
  record(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number): Promise<void>;
  complete(s: IdempotencyScope, status: number, body: string): Promise<void>;
  abandon(s: IdempotencyScope): Promise<void>;
  /** A fresh process owns no in-flight request: those rows were cut off by a crash and changed nothing. */
  clearInFlight(): Promise<void>;
  purgeOlderThan(cutoff: number): Promise<number>;
}

