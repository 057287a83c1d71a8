import type { Db } from './database.js';
import type { JobRecord, JobsRepo } from '../jobs-repo.js';
import { toJobRecord as toRecord, type JobRow } from '../rows/jobs.js';


/** Durable timers: anything the service must do later (carrier progress, decisions, retries). */
export class SqliteJobsRepo implements JobsRepo {
  private readonly nextDueStmt;
  private readonly dueStmt;
  private readonly earliestStmt;
  private readonly lockStmt;
  private readonly claimStmt;
  private readonly renewStmt;
  /** Leases are on wall-clock time (a process dies in real time, whatever the service clock says). */
  constructor(
    private readonly db: Db,
    private readonly wall: () => number = Date.now,
  ) {
    this.nextDueStmt = db.prepare('SELECT * FROM jobs WHERE run_at <= ? AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?) ORDER BY run_at, seq LIMIT 1');
    this.dueStmt = db.prepare('SELECT * FROM jobs WHERE run_at <= ? AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?) ORDER BY run_at, seq LIMIT ?');
    this.lockStmt = db.prepare('SELECT 1 FROM jobs WHERE id = ?');
    this.claimStmt = db.prepare('UPDATE jobs SET claimed_by = ?, lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until <= ? OR claimed_by = ?)');
    this.renewStmt = db.prepare('UPDATE jobs SET lease_until = ? WHERE id = ? AND claimed_by = ? AND lease_until > ?');
    this.earliestStmt = db.prepare('SELECT MIN(run_at) AS t FROM jobs');
  }

  async insert(id: string, kind: string, runAt: number, payload: unknown, now: number): Promise<void> {
    this.db
      .prepare('INSERT INTO jobs (id, kind, run_at, payload, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, kind, runAt, JSON.stringify(payload), now);
  }

  async nextDue(until: number, owner: string | null = null): Promise<JobRecord | undefined> {
    const row = this.nextDueStmt.get(until, this.wall(), owner) as JobRow | undefined;
    return row && toRecord(row);
  }

  /** The first `limit` jobs due by `until`, in the order they run. */
  async due(until: number, limit: number, owner: string | null = null): Promise<JobRecord[]> {
    return (this.dueStmt.all(until, this.wall(), owner, limit) as JobRow[]).map(toRecord);
  }

  /** One process writes at a time on SQLite: a job still there is this write's to run. */
  async lock(id: string): Promise<boolean> {
    return this.lockStmt.get(id) !== undefined;
  }

  async releaseClaims(owner?: string): Promise<void> {
    if (owner === undefined) this.db.prepare('UPDATE jobs SET claimed_by = NULL, lease_until = NULL WHERE lease_until IS NOT NULL').run();
    else this.db.prepare('UPDATE jobs SET claimed_by = NULL, lease_until = NULL WHERE lease_until IS NOT NULL AND claimed_by = ?').run(owner);
  }

  async claim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.wall();
    return this.claimStmt.run(owner, now + leaseMs, id, now, owner).changes === 1;
  }

  async renewClaim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.wall();
    return this.renewStmt.run(now + leaseMs, id, owner, now).changes === 1;
  }

  async earliestRunAt(): Promise<number | undefined> {
    const row = this.earliestStmt.get() as { t: number | null };
    return row.t ?? undefined;
  }

  async delete(id: string): Promise<void> {
    this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
  }

  async reschedule(id: string, runAt: number): Promise<void> {
    this.db.prepare('UPDATE jobs SET run_at = ?, attempts = attempts + 1, claimed_by = NULL, lease_until = NULL WHERE id = ?').run(runAt, id);
  }

  async countByKind(kind: string): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE kind = ?').get(kind) as { n: number }).n;
  }
}
