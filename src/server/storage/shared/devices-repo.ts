import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { DevicePresence } from '../../../api/values/calls.js';
import type { DeviceRecord, DevicesRepo } from '../devices-repo.js';
import { DeviceRow, toRecord } from '../rows/devices.js';

export class SqlDevicesRepo implements DevicesRepo {
  private readonly getStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.getStmt = db.prepare('SELECT * FROM devices WHERE account_id = ? AND id = ?');
  }

  /**
   * Registers a device unless the account's user already has one with this label: the UNIQUE index
   * (account, user, label) decides, so two racing registrations end with one device. Returns the
   * stored device and whether this call created it.
   */
  async insertOrGet(d: DeviceRecord): Promise<{ device: DeviceRecord; created: boolean }> {
    const res = await this.db
      .prepare(
        `INSERT INTO devices (id, account_id, user_id, label, presence, last_seen_at, mode, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, user_id, label) DO NOTHING`,
      )
      .run(d.id, d.accountId, d.userId, d.label, d.presence, d.lastSeenAt, d.mode, d.createdAt);
    const row = await this.db
      .prepare('SELECT * FROM devices WHERE account_id = ? AND user_id = ? AND label = ?')
      .get(d.accountId, d.userId, d.label) as DeviceRow;
    return { device: toRecord(row), created: res.changes === 1 };
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<DeviceRecord>> {
    return await keysetPage<DeviceRow, DeviceRecord>(this.db, { from: 'devices', where: ['account_id = ?'], params: [accountId], limit, cursor, map: toRecord });
  }

  /** A heartbeat: what the device said and when (service clock). */
  async recordPresence(id: string, presence: DevicePresence, at: number): Promise<void> {
    await this.db.prepare('UPDATE devices SET presence = ?, last_seen_at = ? WHERE id = ?').run(presence, at, id);
  }

  async delete(id: string): Promise<void> {
    await this.db.prepare('DELETE FROM devices WHERE id = ?').run(id);
  }

  /** The account's device with this id (another account's device is not found). */
  async get(accountId: string, id: string): Promise<DeviceRecord | undefined> {
    const row = await this.getStmt.get(accountId, id) as DeviceRow | undefined;
    return row && toRecord(row);
  }
}
