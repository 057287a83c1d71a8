import type { Db } from './database.js';
import { keysetPage } from './pagination.js';
import type { Page } from '../../api/schemas/page.js';
import type { KeyMode } from '../../api/values/keys.js';

export interface AccountRecord {
  id: string;
  name: string;
  parentId: string | null;
  isAgency: boolean;
  status: 'active' | 'suspended';
  /** The mode of the key that created it (a sub-account; the root: live); contract §2: a live one is a live key's to change. */
  mode: KeyMode;
  createdAt: number;
  updatedAt: number;
}

interface AccountRow {
  seq: number;
  id: string;
  name: string;
  parent_id: string | null;
  is_agency: number;
  status: 'active' | 'suspended';
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: AccountRow): AccountRecord => ({
  id: r.id,
  name: r.name,
  parentId: r.parent_id,
  isAgency: r.is_agency === 1,
  status: r.status,
  mode: r.mode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class AccountsRepo {
  constructor(private readonly db: Db) {}

  insert(a: AccountRecord): void {
    this.db
      .prepare(
        'INSERT INTO accounts (id, name, parent_id, is_agency, status, mode, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(a.id, a.name, a.parentId, a.isAgency ? 1 : 0, a.status, a.mode, a.createdAt, a.updatedAt);
  }

  get(id: string): AccountRecord | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row && toRecord(row);
  }

  /** A direct child of `parentId`, or undefined (another agency's child is as good as missing). */
  getChild(parentId: string, id: string): AccountRecord | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ? AND parent_id = ?').get(id, parentId) as
      | AccountRow
      | undefined;
    return row && toRecord(row);
  }

  listChildren(parentId: string, limit: number, cursor?: string): Page<AccountRecord> {
    return keysetPage<AccountRow, AccountRecord>(this.db, {
      from: 'accounts',
      where: ['parent_id = ?'],
      params: [parentId],
      limit,
      cursor,
      map: toRecord,
    });
  }

  allChildren(parentId: string): AccountRecord[] {
    return (
      this.db.prepare('SELECT * FROM accounts WHERE parent_id = ? ORDER BY created_at DESC, seq DESC').all(parentId) as AccountRow[]
    ).map(toRecord);
  }

  update(id: string, patch: { name?: string; status?: 'active' | 'suspended' }, now: number): void {
    this.db
      .prepare('UPDATE accounts SET name = COALESCE(?, name), status = COALESCE(?, status), updated_at = ? WHERE id = ?')
      .run(patch.name ?? null, patch.status ?? null, now, id);
  }

  first(): AccountRecord | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE parent_id IS NULL ORDER BY seq LIMIT 1').get() as
      | AccountRow
      | undefined;
    return row && toRecord(row);
  }
}
