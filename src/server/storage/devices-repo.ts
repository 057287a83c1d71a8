import type { Db } from './database.js';
import type { DevicePresence } from '../../api/values/calls.js';

// contract §6: softphone devices, one per account, user and label (UNIQUE in migration 6).

export interface DeviceRecord {
  id: string;
  accountId: string;
  userId: string;
  label: string;
  /** What the last heartbeat said; the 60 s staleness rule is applied by whoever reads it. */
  presence: DevicePresence;
  /** Service-clock ms of the last heartbeat, or null. */
  lastSeenAt: number | null;
  createdAt: number;
}

interface DeviceRow {
  seq: number;
  id: string;
  account_id: string;
  user_id: string;
  label: string;
  presence: DevicePresence;
  last_seen_at: number | null;
  created_at: number;
}

const toRecord = (r: DeviceRow): DeviceRecord => ({
  id: r.id,
  accountId: r.account_id,
  userId: r.user_id,
  label: r.label,
  presence: r.presence,
  lastSeenAt: r.last_seen_at,
  createdAt: r.created_at,
});

export class DevicesRepo {
  private readonly getStmt;
  constructor(private readonly db: Db) {
    this.getStmt = db.prepare('SELECT * FROM devices WHERE account_id = ? AND id = ?');
  }

  /** The account's device with this id (another account's device is not found). */
  get(accountId: string, id: string): DeviceRecord | undefined {
    const row = this.getStmt.get(accountId, id) as DeviceRow | undefined;
    return row && toRecord(row);
  }
}
