// The devices family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { DevicePresence } from '../../../api/values/calls.js';
import type { KeyMode } from '../../../api/values/keys.js';
import type { DeviceRecord } from '../devices-repo.js';

// contract §6: softphone devices, one per account, user and label (UNIQUE in migration 6).

export interface DeviceRow {
  seq: number;
  id: string;
  account_id: string;
  user_id: string;
  label: string;
  presence: DevicePresence;
  last_seen_at: number | null;
  mode: KeyMode;
  created_at: number;
}

export const toRecord = (r: DeviceRow): DeviceRecord => ({
  id: r.id,
  accountId: r.account_id,
  userId: r.user_id,
  label: r.label,
  presence: r.presence,
  lastSeenAt: r.last_seen_at,
  mode: r.mode,
  createdAt: r.created_at,
});
