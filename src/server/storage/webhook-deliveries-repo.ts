import type { Page } from '../../api/schemas/page.js';
import type { DeliveryStatus } from '../../api/schemas/webhooks.js';

/**
 * The request an attempt sent, kept with it: what cannot be made again later. The signature's `t` is
 * the real time of the attempt (not the service time `at`), its MAC the endpoint's secret of that
 * moment (rotated since, maybe), the URL the endpoint's then (changed since, maybe). Its headers are
 * the service's own few (signing.ts), never the secret itself. The body is not copied: it is the
 * stored event's (or the sample's), never changed, read again (`rawBody`).
 */
export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
}

export interface AttemptRecord {
  attempt: number;
  at: number;
  outcome: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  /** The response body's first 1 KB (spec: Delivery). Absent in attempts recorded before it was kept. */
  responseBody?: string | null;
  /** null: nothing was sent (refused before the POST). Absent in attempts recorded before it was kept. */
  request?: AttemptRequest | null;
}

export interface DeliveryRecord {
  seq: number;
  id: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  /** Set only for samples that are not in the events table (POST /test). */
  body: string | null;
  isTest: boolean;
  maxAttempts: number;
  /** Attempts made so far. */
  attempt: number;
  status: DeliveryStatus;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
  /** Set exactly while another attempt is scheduled. */
  nextAttemptAt: number | null;
  attempts: AttemptRecord[];
  createdAt: number;
  updatedAt: number;
}

/** What an attempt needs to know, and the exact bytes to POST (null: the event is no longer stored). */
export interface DeliveryAttemptState {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  isTest: boolean;
  maxAttempts: number;
  attempt: number;
  nextAttemptAt: number | null;
  rawBody: string | null;
}

export interface DueDelivery {
  id: string;
  endpointId: string;
}

/** A place in the due order (next attempt time, then seq): where a page of due deliveries ended. */
export interface DueCursor {
  at: number;
  seq: number;
}

/** A page of due deliveries and where it ended (`last`: undefined when it held none). */
export interface DuePage {
  deliveries: DueDelivery[];
  last: DueCursor | undefined;
}

/** What the outbox writes; the attempt fields start empty. */
export type NewDelivery = Pick<DeliveryRecord, 'id' | 'endpointId' | 'accountId' | 'eventId' | 'eventType' | 'body' | 'isTest' | 'maxAttempts' | 'createdAt'>;

/** An attempt's result: the delivery's latest-attempt fields, plus the attempt for its history. */
export type AttemptOutcomeUpdate = Pick<DeliveryRecord, 'attempt' | 'status' | 'responseStatus' | 'responseBody' | 'durationMs' | 'error' | 'nextAttemptAt'> & {
  history: AttemptRecord;
  now: number;
};

/** One outcome of a batch (recordAttempts): the delivery, and the attempt it records. */
export type AttemptOutcomeWrite = AttemptOutcomeUpdate & { id: string };

export interface WebhookDeliveriesRepo {
  /** A new delivery is pending, attempt 0, due at once (its creation time). */
  insert(d: NewDelivery): Promise<void>;
  getById(id: string): Promise<DeliveryRecord | undefined>;
  /**
   * The delivery's attempt state without its log fields (no attempt history parsed). `body: false`
   * leaves out the bytes to send (rawBody null): recording an outcome needs the state only, and the
   * body is the event's, read from another table (else two reads of it per attempt).
   */
  attemptState(id: string, opts?: { body: boolean }): Promise<DeliveryAttemptState | undefined>;
  /** `attemptState` for many deliveries in one read (those found; in no particular order). */
  attemptStates(ids: string[], opts?: { body: boolean }): Promise<DeliveryAttemptState[]>;
  get(accountId: string, endpointId: string, id: string): Promise<DeliveryRecord | undefined>;
  /** The delivery log: newest first, keyset-paged, only rows created at or after `since`. */
  list(endpointId: string, opts: { since: number; limit: number; cursor?: string; status?: DeliveryStatus }): Promise<Page<DeliveryRecord>>;
  /**
   * The event's deliveries whose next attempt is due, claimed or not: whoever reads them queues them,
   * and the claim taken at the attempt decides who makes it (a process that made one waits for it).
   */
  dueForEvent(eventId: string, now: number): Promise<DueDelivery[]>;
  /** Deliveries whose next attempt is due, oldest due first, claimed or not (see dueForEvent). */
  due(now: number, limit?: number): Promise<DueDelivery[]>;
  /**
   * A page of `due`, reading on after `after` (the previous page's `last`) in the same
   * order, so a poll that finds the oldest due ones queued already reaches the newer ones.
   */
  duePage(now: number, limit: number, after?: DueCursor): Promise<DuePage>;
  /** `dueForEvent` for many events in one read (a worker hearing a batch of events' notifications). */
  dueForEvents(eventIds: string[], now: number): Promise<DueDelivery[]>;
  /**
   * Claims delivery `id`'s next attempt for `owner` for `leaseMs` of the engine's wall clock: only
   * while an attempt is scheduled, due by `now` (any time when `anyTime`: a probe the user
   * asked for) and no other owner's live claim holds it; true when claimed. Recording the attempt (or
   * abandoning it) releases the claim; a claimant that dies releases it when the lease runs out.
   * `owner`'s own live claim is taken again: the worker never claims a delivery it has in hand, so
   * such a claim is one whose write committed while its answer was lost with the connection (the
   * database went away at the commit), and waiting out the lease would hold the delivery back.
   */
  claimAttempt(id: string, owner: string, leaseMs: number, now: number, anyTime: boolean): Promise<boolean>;
  /**
   * `claimAttempt` for many deliveries in one write (a lane claiming a window ahead): each
   * id still due by `now` and held by no other owner's live claim is claimed for `owner`; returns the ids won.
   * Two owners racing for the same ids never both win one (PostgreSQL: rows another claimant has
   * locked are skipped, not waited for).
   */
  claimAttempts(ids: string[], owner: string, leaseMs: number, now: number): Promise<string[]>;
  /**
   * Renews `owner`'s live claims on `ids` for `leaseMs` more, in one write (attempts still
   * queued or running); a claim whose lease ran out may have been taken over and is not renewed.
   * Returns the ids renewed.
   */
  renewClaims(owner: string, ids: string[], leaseMs: number): Promise<string[]>;
  /** Releases the claims `owner` holds (a process stopping), or every claim (no owner: a process that owns the database starting). */
  releaseClaims(owner?: string): Promise<void>;
  /** Deliveries whose claim ran out with an attempt still scheduled (their claimant died or stalled). */
  leaseExpired(limit: number): Promise<DueDelivery[]>;
  /**
   * Deliveries due by `dueBy` (service time) that no process has claimed, oldest due first.
   * A delivery's first attempt is handed, after its event's commit, to the worker of the process that
   * wrote it, which claims it only when its lane reaches it: a process that dies in between leaves it
   * unclaimed and due, and no lease runs out to say so (the worker's sweep asks for those due for a
   * lease already).
   */
  unclaimedDue(dueBy: number, limit: number): Promise<DueDelivery[]>;
  /** The exact bytes to POST: the stored event body (identical to the feed's), or the sample's. */
  rawBody(d: DeliveryRecord): Promise<string | undefined>;
  recordAttempt(id: string, u: AttemptOutcomeUpdate): Promise<void>;
  /**
   * Many outcomes in one write. Each is written only while its delivery's attempt count is
   * the one before it (`u.attempt - 1`), so an outcome is never recorded twice; returns the ids written.
   */
  recordAttempts(updates: AttemptOutcomeWrite[]): Promise<string[]>;
  /** Schedules one more attempt (a manual retry): due at `at`. */
  scheduleAttempt(id: string, at: number, status: DeliveryStatus, now: number): Promise<void>;
  /** Stops every scheduled attempt of an endpoint (it was disabled): they become abandoned. */
  abandonScheduled(endpointId: string, error: string, now: number): Promise<number>;
  /** Abandons one delivery whose next attempt can no longer be made (event gone, endpoint disabled). */
  abandon(id: string, error: string, now: number): Promise<void>;
  /**
   * The events whose newest delivery to the endpoint (samples aside) is in `status` and was created at
   * or after `since` (the log's window), oldest delivery first, at most `limit`.
   */
  eventsLastIn(endpointId: string, status: DeliveryStatus, since: number, limit: number): Promise<string[]>;
  /** spec: Limits — the delivery log keeps 7 days; finished rows older than that are dropped. */
  purgeFinishedBefore(cutoff: number): Promise<number>;
  /** Whether the scheduler already holds a job of `kind` at exactly `runAt` (one tick job per boundary). */
  hasJobAt(kind: string, runAt: number): Promise<boolean>;
}

