// The webhooks family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { KeyMode } from '../../../api/values/keys.js';
import type { WebhookEndpointRecord, WebhookEndpointPatch } from '../webhooks-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

export interface EndpointRow {
  seq: number;
  id: string;
  account_id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  enabled: StoredFlag;
  disabled_at: number | null;
  disabled_reason: string | null;
  consecutive_failures: number;
  failing_since: number | null;
  last_success_at: number | null;
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: EndpointRow): WebhookEndpointRecord => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  description: r.description,
  secret: r.secret,
  enabled: flag(r.enabled),
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  consecutiveFailures: r.consecutive_failures,
  failingSince: r.failing_since,
  lastSuccessAt: r.last_success_at,
  mode: r.mode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
export const COLUMNS: Record<keyof WebhookEndpointPatch, string> = {
  url: 'url',
  events: 'events',
  description: 'description',
  secret: 'secret',
  enabled: 'enabled',
  disabledAt: 'disabled_at',
  disabledReason: 'disabled_reason',
  consecutiveFailures: 'consecutive_failures',
  failingSince: 'failing_since',
  lastSuccessAt: 'last_success_at',
};
