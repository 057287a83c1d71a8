import type { Page } from '../../api/schemas/page.js';

export interface KeyRecord {
  id: string;
  accountId: string;
  name: string;
  mode: 'live' | 'test';
  prefix: string;
  hash: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface KeysRepo {
  insert(k: KeyRecord): Promise<void>;
  findByHash(hash: string): Promise<KeyRecord | undefined>;
  get(accountId: string, id: string): Promise<KeyRecord | undefined>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<KeyRecord>>;
  markUsed(id: string, at: number): Promise<void>;
  revoke(id: string, at: number): Promise<void>;
}

