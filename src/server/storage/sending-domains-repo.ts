import type { KeyMode } from '../../api/values/keys.js';
import type { Page } from '../../api/schemas/page.js';
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
  /** The mode of the key that added it; contract §2: a live one is a live key's to delete. */
  mode: KeyMode;
  createdAt: number;
  verifiedAt: number | null;
  lastCheckedAt: number | null;
  updatedAt: number;
}

export interface SendingDomainsRepo {
  /** The account's domain by id (another account's is not found). */
  get(accountId: string, id: string): Promise<SendingDomainRecord | undefined>;
  /** A domain by its name, whoever owns it (`domain` lower-case, as stored). */
  findByDomain(domain: string): Promise<SendingDomainRecord | undefined>;
  /**
   * Every registered domain that is `name` or a parent of it, whoever owns it (the zone rules of
   * `domain/email/zone-claims.ts`). `name` lower-case, as stored.
   */
  claimsOver(name: string): Promise<SendingDomainRecord[]>;
  /** A domain by id, whoever owns it (the scheduler's jobs). */
  getById(id: string): Promise<SendingDomainRecord | undefined>;
  insert(d: SendingDomainRecord): Promise<void>;
  /** Saves what a check changes (status, records' states, timestamps). */
  save(d: SendingDomainRecord): Promise<void>;
  /** Deletes the row (a removal or a release); true when it existed. */
  delete(id: string): Promise<boolean>;
  /** The account's domains, newest first, optionally of one status. */
  list(accountId: string, f: { status?: DomainStatus }, limit: number, cursor?: string): Promise<Page<SendingDomainRecord>>;
}

