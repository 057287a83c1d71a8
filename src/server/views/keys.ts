import { iso, isoOrNull } from '../clock.js';
import type { KeyRecord } from '../storage/keys-repo.js';
import type { ApiKey, CreatedApiKey } from '../../api/schemas/keys.js';

// Records → API shapes for API keys (contract §3). Rules for reads: views/README.md.

export const keyView = (k: KeyRecord): ApiKey => ({
  id: k.id,
  name: k.name,
  mode: k.mode,
  prefix: k.prefix,
  createdAt: iso(k.createdAt),
  lastUsedAt: isoOrNull(k.lastUsedAt),
  revokedAt: isoOrNull(k.revokedAt),
});

/** The create response: the key itself, shown once (an idempotent replay carries null). */
export const createdKeyView = (record: KeyRecord, key: string): CreatedApiKey => ({
  id: record.id,
  name: record.name,
  mode: record.mode,
  prefix: record.prefix,
  key,
  createdAt: iso(record.createdAt),
});
