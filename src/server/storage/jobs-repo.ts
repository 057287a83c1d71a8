
export interface JobRecord {
  seq: number;
  id: string;
  kind: string;
  runAt: number;
  payload: unknown;
  attempts: number;
}

/** Durable timers: anything the service must do later (carrier progress, decisions, retries). */
export interface JobsRepo {
  insert(id: string, kind: string, runAt: number, payload: unknown, now: number): Promise<void>;
  /**
   * The first job due by `until` that no live claim holds, but `owner`'s own (see `claim`): a
   * process that asks has no job running (its scheduler runs one drain at a time), so a claim of
   * its own still live is one whose write committed while the answer was lost with the connection,
   * and waiting out its lease would hold the job back for nothing.
   */
  nextDue(until: number, owner?: string | null): Promise<JobRecord | undefined>;
  /** The first `limit` jobs due by `until`, in the order they run, leaving out those another's live claim holds (see `nextDue`). */
  due(until: number, limit: number, owner?: string | null): Promise<JobRecord[]>;
  /**
   * Inside a write, before a job runs in it: true when job `id` is still there and no
   * other open write holds it; the job's row stays held until this write ends. A job that runs inside
   * a write is removed in it, so two processes draining at once run it once: the one that holds the
   * row runs it, the other skips it (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite has one writer).
   */
  lock(id: string): Promise<boolean>;
  /**
   * Claims job `id` for `owner` for `leaseMs` of the engine's wall clock, unless another owner's
   * claim on it is still live (`owner`'s own is taken again: see `nextDue`); true when claimed. For
   * a job that calls the outside world: its work
   * runs with no transaction open, so a lock could not be held across it. A claimant that dies
   * releases the job when the lease runs out, and `due` offers it again.
   */
  claim(id: string, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Renews `owner`'s live claim on job `id` for `leaseMs` more (its work is still running);
   * false when the claim is not `owner`'s or its lease ran out (another may have taken the job over).
   */
  renewClaim(id: string, owner: string, leaseMs: number): Promise<boolean>;
  earliestRunAt(): Promise<number | undefined>;
  delete(id: string): Promise<void>;
  /** Releases the claims `owner` holds (a process stopping), or every claim (no owner: a process that owns the database starting). */
  releaseClaims(owner?: string): Promise<void>;
  /** Moves a failed job to `runAt`, one attempt more, its claim released. */
  reschedule(id: string, runAt: number): Promise<void>;
  countByKind(kind: string): Promise<number>;
}

