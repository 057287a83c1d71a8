
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
  nextDue(until: number): Promise<JobRecord | undefined>;
  /** The first `limit` jobs due by `until`, in the order they run. */
  due(until: number, limit: number): Promise<JobRecord[]>;
  earliestRunAt(): Promise<number | undefined>;
  delete(id: string): Promise<void>;
  reschedule(id: string, runAt: number): Promise<void>;
  countByKind(kind: string): Promise<number>;
}

