// The accounts family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { KeyMode } from '../../../api/values/keys.js';
import type { AccountRecord } from '../accounts-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

export interface AccountRow {
  seq: number;
  id: string;
  name: string;
  parent_id: string | null;
  is_agency: StoredFlag;
  status: 'active' | 'suspended';
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: AccountRow): AccountRecord => ({
  id: r.id,
  name: r.name,
  parentId: r.parent_id,
  isAgency: flag(r.is_agency),
  status: r.status,
  mode: r.mode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
