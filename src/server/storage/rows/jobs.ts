// The jobs table's rows as both engines store them, and their records: one codec for SQLite and PostgreSQL.
import type { JobRecord } from '../jobs-repo.js';

export interface JobRow {
  seq: number;
  id: string;
  kind: string;
  run_at: number;
  payload: string;
  attempts: number;
}

export const toJobRecord = (r: JobRow): JobRecord => ({
  seq: r.seq,
  id: r.id,
  kind: r.kind,
  runAt: r.run_at,
  payload: JSON.parse(r.payload) as unknown,
  attempts: r.attempts,
});
