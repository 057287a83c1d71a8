import type { Sql } from './sql.js';
import type { JobRecord, JobsRepo } from '../jobs-repo.js';

interface JobRow {
  seq: number;
  id: string;
  kind: string;
  run_at: number;
  payload: string;
  attempts: number;
}

const toRecord = (r: JobRow): JobRecord => ({
  seq: r.seq,
  id: r.id,
  kind: r.kind,
  runAt: r.run_at,
  payload: JSON.parse(r.payload) as unknown,
  attempts: r.attempts,
});

/** Durable timers: anything the service must do later (carrier progress, decisions, retries). */
export class PgJobsRepo implements JobsRepo {
  private readonly nextDueStmt;
  private readonly dueStmt;
  private readonly earliestStmt;
  constructor(private readonly db: Sql) {
    this.nextDueStmt = db.prepare('SELECT * FROM jobs WHERE run_at <= ? ORDER BY run_at, seq LIMIT 1');
    this.dueStmt = db.prepare('SELECT * FROM jobs WHERE run_at <= ? ORDER BY run_at, seq LIMIT ?');
    this.earliestStmt = db.prepare('SELECT MIN(run_at) AS t FROM jobs');
  }

  async insert(id: string, kind: string, runAt: number, payload: unknown, now: number): Promise<void> {
    await this.db
      .prepare('INSERT INTO jobs (id, kind, run_at, payload, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, kind, runAt, JSON.stringify(payload), now);
  }

  async nextDue(until: number): Promise<JobRecord | undefined> {
    const row = await this.nextDueStmt.get(until) as JobRow | undefined;
    return row && toRecord(row);
  }

  /** The first `limit` jobs due by `until`, in the order they run. */
  async due(until: number, limit: number): Promise<JobRecord[]> {
    return (await this.dueStmt.all(until, limit) as JobRow[]).map(toRecord);
  }

  async earliestRunAt(): Promise<number | undefined> {
    const row = await this.earliestStmt.get() as { t: number | null };
    return row.t ?? undefined;
  }

  async delete(id: string): Promise<void> {
    await this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
  }

  async reschedule(id: string, runAt: number): Promise<void> {
    await this.db.prepare('UPDATE jobs SET run_at = ?, attempts = attempts + 1 WHERE id = ?').run(runAt, id);
  }

  async countByKind(kind: string): Promise<number> {
    return (await this.db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE kind = ?').get(kind) as { n: number }).n;
  }
}
