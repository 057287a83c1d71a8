// The keys family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { KeyRecord } from '../keys-repo.js';

export interface KeyRow {
  seq: number;
  id: string;
  account_id: string;
  name: string;
  mode: 'live' | 'test';
  prefix: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export const toRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  mode: r.mode,
  prefix: r.prefix,
  hash: r.hash,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});
