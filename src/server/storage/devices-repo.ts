import type { Page } from '../../api/schemas/page.js';
import type { DevicePresence } from '../../api/values/calls.js';
import type { KeyMode } from '../../api/values/keys.js';

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
  /** The mode of the key that created it; contract §2: a live one is a live key's to change. */
  mode: KeyMode;
  createdAt: number;
}

export interface DevicesRepo {
  /**
   * Registers a device unless the account's user already has one with this label: the UNIQUE index
   * (account, user, label) decides, so two racing registrations end with one device. Returns the
   * stored device and whether this call created it.
   */
  insertOrGet(d: DeviceRecord): Promise<{ device: DeviceRecord; created: boolean }>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<DeviceRecord>>;
  /** A heartbeat: what the device said and when (service clock). */
  recordPresence(id: string, presence: DevicePresence, at: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** The account's device with this id (another account's device is not found). */
  get(accountId: string, id: string): Promise<DeviceRecord | undefined>;
}

