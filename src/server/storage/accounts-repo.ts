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

export interface AccountsRepo {
  insert(a: AccountRecord): Promise<void>;
  get(id: string): Promise<AccountRecord | undefined>;
  /** A direct child of `parentId`, or undefined (another agency's child is as good as missing). */
  getChild(parentId: string, id: string): Promise<AccountRecord | undefined>;
  listChildren(parentId: string, limit: number, cursor?: string): Promise<Page<AccountRecord>>;
  allChildren(parentId: string): Promise<AccountRecord[]>;
  update(id: string, patch: { name?: string; status?: 'active' | 'suspended' }, now: number): Promise<void>;
  first(): Promise<AccountRecord | undefined>;
  /** Every account, oldest first (a reset that keeps keys copies them all). */
  all(): Promise<AccountRecord[]>;
}

