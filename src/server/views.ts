import { iso } from './clock.js';
import type { KeyRecord } from './storage/keys-repo.js';
import type { AccountRecord } from './storage/accounts-repo.js';
import type { ApiKey } from '../api/schemas/keys.js';
import type { Subaccount } from '../api/schemas/subaccounts.js';

// Records → API shapes. One place per resource, so a field is spelled once.
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export const keyView = (k: KeyRecord): ApiKey => ({
  id: k.id,
  name: k.name,
  mode: k.mode,
  prefix: k.prefix,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
  revokedAt: isoOrNull(k.revokedAt),
});

export const subaccountView = (a: AccountRecord): Subaccount => ({
  id: a.id,
  name: a.name,
  status: a.status,
  createdAt: iso(a.createdAt),
});
