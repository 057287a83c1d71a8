// The sending-domains family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { KeyMode } from '../../../api/values/keys.js';
import type { DomainStatus } from '../../../api/values/email.js';
import type { DnsRecordState, SendingDomainRecord } from '../sending-domains-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// spec: Sending domain; contract §8. One row per domain name service-wide (a domain belongs to one
// account: UNIQUE in migration 9); a released domain's row is deleted.

export interface SendingDomainRow {
  seq: number;
  id: string;
  account_id: string;
  domain: string;
  status: DomainStatus;
  records: string;
  ever_verified: StoredFlag;
  mode: KeyMode;
  created_at: number;
  verified_at: number | null;
  last_checked_at: number | null;
  updated_at: number;
}

export const toSendingDomain = (r: SendingDomainRow): SendingDomainRecord => ({
  id: r.id,
  accountId: r.account_id,
  domain: r.domain,
  status: r.status,
  records: JSON.parse(r.records) as DnsRecordState[],
  everVerified: flag(r.ever_verified),
  mode: r.mode,
  createdAt: r.created_at,
  verifiedAt: r.verified_at,
  lastCheckedAt: r.last_checked_at,
  updatedAt: r.updated_at,
});
