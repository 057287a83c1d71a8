// The console-sessions family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { ConsoleSessionRecord } from '../console-sessions-repo.js';

export interface Row {
  hash: string;
  kind: ConsoleSessionRecord['kind'];
  key_id: string;
  account_id: string;
  subaccount_id: string | null;
  csrf: string;
  created_at: number;
  expires_at: number;
}

export const toRecord = (r: Row): ConsoleSessionRecord => ({
  hash: r.hash,
  kind: r.kind,
  keyId: r.key_id,
  accountId: r.account_id,
  subaccountId: r.subaccount_id,
  csrf: r.csrf,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});
