import type { Dialect, Statements } from './statements.js';
import { asIs, json, table, type Row } from './table.js';
import type { JobRecord, JobsRepo } from '../jobs-repo.js';

const JOBS = table<JobRecord>('jobs', {
  seq: asIs,
  id: asIs,
  kind: asIs,
  runAt: asIs,
  payload: json,
  attempts: asIs,
});

export class SqlJobsRepo implements JobsRepo {
  private readonly nextDueStmt;
  private readonly dueStmt;
  private readonly earliestStmt;
  private readonly lockStmt;
  private readonly claimStmt;
  private readonly renewStmt;
  /** Leases are on wall-clock time (a process dies in real time, whatever the service clock says): Dialect.wallMs. */
  constructor(
    private readonly db: Statements,
    d: Dialect,
  ) {
    const now = d.wallMs;
    const free = `(lease_until IS NULL OR lease_until <= ${now} OR claimed_by = @owner)`;
    this.nextDueStmt = db.prepare(`SELECT * FROM jobs WHERE run_at <= @until AND ${free} ORDER BY run_at, seq LIMIT 1`);
    this.dueStmt = db.prepare(`SELECT * FROM jobs WHERE run_at <= @until AND ${free} ORDER BY run_at, seq LIMIT @limit`);
    // Chosen over a claim column for jobs run inside a write: the job's removal commits in the same
    // write, so the row lock held to the end of it is the whole claim, with no lease to run out and
    // no extra write. Where writes run concurrently a row another write holds is skipped, not waited
    // for (Dialect.skipLocked); one deleted since this write's snapshot fails it with 40001, and its
    // rerun finds the job gone. With one writer at a time a job still there is this write's to run.
    this.lockStmt = db.prepare(`SELECT 1 FROM jobs WHERE id = ? ${d.skipLocked}`);
    this.claimStmt = db.prepare(`UPDATE jobs SET claimed_by = @owner, lease_until = ${now} + @lease WHERE id = @id AND ${free}`);
    this.renewStmt = db.prepare(`UPDATE jobs SET lease_until = ${now} + @lease WHERE id = @id AND claimed_by = @owner AND lease_until > ${now}`);
    this.earliestStmt = db.prepare('SELECT MIN(run_at) AS t FROM jobs');
  }

  async insert(id: string, kind: string, runAt: number, payload: unknown, now: number): Promise<void> {
    await this.db
      .prepare('INSERT INTO jobs (id, kind, run_at, payload, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, kind, runAt, JSON.stringify(payload), now);
  }

  async nextDue(until: number, owner: string | null = null): Promise<JobRecord | undefined> {
    const row = await this.nextDueStmt.get({ until, owner}) as Row | undefined;
    return row && JOBS.read(row);
  }

  async due(until: number, limit: number, owner: string | null = null): Promise<JobRecord[]> {
    return (await this.dueStmt.all({ until, owner, limit}) as Row[]).map(JOBS.read);
  }

  async lock(id: string): Promise<boolean> {
    return (await this.lockStmt.get(id)) !== undefined;
  }

  async releaseClaims(owner?: string): Promise<void> {
    if (owner === undefined) await this.db.prepare('UPDATE jobs SET claimed_by = NULL, lease_until = NULL WHERE lease_until IS NOT NULL').run();
    else await this.db.prepare('UPDATE jobs SET claimed_by = NULL, lease_until = NULL WHERE lease_until IS NOT NULL AND claimed_by = ?').run(owner);
  }

  async claim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await this.claimStmt.run({ id, owner, lease: leaseMs})).changes === 1;
  }

  async renewClaim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await this.renewStmt.run({ id, owner, lease: leaseMs})).changes === 1;
  }

  async earliestRunAt(): Promise<number | undefined> {
    const row = await this.earliestStmt.get() as { t: number | null };
    return row.t ?? undefined;
  }

  async delete(id: string): Promise<void> {
    await this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
  }

  async reschedule(id: string, runAt: number): Promise<void> {
    await this.db.prepare('UPDATE jobs SET run_at = ?, attempts = attempts + 1, claimed_by = NULL, lease_until = NULL WHERE id = ?').run(runAt, id);
  }

  async countByKind(kind: string): Promise<number> {
    return (await this.db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE kind = ?').get(kind) as { n: number }).n;
  }
}
