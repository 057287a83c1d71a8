import type { Db } from './database.js';
import type { DnsRecordPurpose, DomainStatus } from '../../api/values/email.js';
import type { DNS_RECORD_STATUSES, DNS_RECORD_TYPES } from '../../api/values/email.js';

// spec: Sending domain; contract §8. One row per domain name service-wide (a domain belongs to one
// account: UNIQUE in migration 9); a released domain's row is deleted.

export interface DnsRecordState {
  type: (typeof DNS_RECORD_TYPES)[number];
  name: string;
  value: string;
  purpose: DnsRecordPurpose;
  status: (typeof DNS_RECORD_STATUSES)[number];
}

export interface SendingDomainRecord {
  id: string;
  accountId: string;
  /** lower-case, no trailing dot */
  domain: string;
  status: DomainStatus;
  records: DnsRecordState[];
  /** spec: Sending domain status — a domain that was ever verified is never released. */
  everVerified: boolean;
  createdAt: number;
  verifiedAt: number | null;
  lastCheckedAt: number | null;
  updatedAt: number;
}

interface SendingDomainRow {
  seq: number;
  id: string;
  account_id: string;
  domain: string;
  status: DomainStatus;
  records: string;
  ever_verified: number;
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
  everVerified: r.ever_verified === 1,
  createdAt: r.created_at,
  verifiedAt: r.verified_at,
  lastCheckedAt: r.last_checked_at,
  updatedAt: r.updated_at,
});

export class SendingDomainsRepo {
  private readonly getStmt;
  private readonly byNameStmt;
  constructor(protected readonly db: Db) {
    this.getStmt = db.prepare('SELECT * FROM sending_domains WHERE id = ? AND account_id = ?');
    this.byNameStmt = db.prepare('SELECT * FROM sending_domains WHERE domain = ?');
  }

  /** The account's domain by id (another account's is not found). */
  get(accountId: string, id: string): SendingDomainRecord | undefined {
    const row = this.getStmt.get(id, accountId) as SendingDomainRow | undefined;
    return row && toSendingDomain(row);
  }

  /** A domain by its name, whoever owns it (`domain` lower-case, as stored). */
  findByDomain(domain: string): SendingDomainRecord | undefined {
    const row = this.byNameStmt.get(domain) as SendingDomainRow | undefined;
    return row && toSendingDomain(row);
  }
}
