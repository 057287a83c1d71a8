import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, table, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { DevicePresence } from '../../../api/values/calls.js';
import type { DeviceRecord, DevicesRepo } from '../devices-repo.js';

const DEVICES = table<DeviceRecord>('devices', {
  id: asIs,
  accountId: asIs,
  userId: asIs,
  label: asIs,
  presence: asIs,
  lastSeenAt: asIs,
  mode: asIs,
  createdAt: asIs,
});

export class SqlDevicesRepo implements DevicesRepo {
  private readonly getStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.getStmt = db.prepare('SELECT * FROM devices WHERE account_id = ? AND id = ?');
  }

  async insertOrGet(d: DeviceRecord): Promise<{ device: DeviceRecord; created: boolean }> {
    const res = await this.db
      .prepare(`${DEVICES.insertSql()} ON CONFLICT (account_id, user_id, label) DO NOTHING`)
      .run(...DEVICES.values(d, this.d));
    const row = await this.db
      .prepare('SELECT * FROM devices WHERE account_id = ? AND user_id = ? AND label = ?')
      .get(d.accountId, d.userId, d.label) as Row;
    return { device: DEVICES.read(row), created: res.changes === 1 };
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<DeviceRecord>> {
    return await keysetPage(this.db, { from: 'devices', where: ['account_id = ?'], params: [accountId], limit, cursor, map: DEVICES.read });
  }

  async recordPresence(id: string, presence: DevicePresence, at: number): Promise<void> {
    await this.db.prepare('UPDATE devices SET presence = ?, last_seen_at = ? WHERE id = ?').run(presence, at, id);
  }

  async delete(id: string): Promise<void> {
    await this.db.prepare('DELETE FROM devices WHERE id = ?').run(id);
  }

  async get(accountId: string, id: string): Promise<DeviceRecord | undefined> {
    const row = await this.getStmt.get(accountId, id) as Row | undefined;
    return row && DEVICES.read(row);
  }
}
