import type { Dialect, Statements } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import { keysetPage } from './keyset-page.js';
import type { DomainStatus } from '../../../api/values/email.js';
import type { SendingDomainRecord, SendingDomainsRepo } from '../sending-domains-repo.js';
import { SendingDomainRow, toSendingDomain } from '../rows/sending-domains.js';

export class SqlSendingDomainsRepo implements SendingDomainsRepo {
  private readonly getStmt;
  private readonly byNameStmt;
  constructor(
    protected readonly db: Statements,
    private readonly dialect: Dialect,
  ) {
    this.getStmt = db.prepare('SELECT * FROM sending_domains WHERE id = ? AND account_id = ?');
    this.byNameStmt = db.prepare('SELECT * FROM sending_domains WHERE domain = ?');
  }

  /** The account's domain by id (another account's is not found). */
  async get(accountId: string, id: string): Promise<SendingDomainRecord | undefined> {
    const row = await this.getStmt.get(id, accountId) as SendingDomainRow | undefined;
    return row && toSendingDomain(row);
  }

  /** A domain by its name, whoever owns it (`domain` lower-case, as stored). */
  async findByDomain(domain: string): Promise<SendingDomainRecord | undefined> {
    const row = await this.byNameStmt.get(domain) as SendingDomainRow | undefined;
    return row && toSendingDomain(row);
  }

  /**
   * Every registered domain that is `name` or a parent of it, whoever owns it (the zone rules of
   * `domain/email/zone-claims.ts`). `name` lower-case, as stored.
   */
  async claimsOver(name: string): Promise<SendingDomainRecord[]> {
    const labels = name.split('.');
    const out: SendingDomainRecord[] = [];
    for (let i = 0; i < labels.length - 1; i++) {
      const d = await this.findByDomain(labels.slice(i).join('.'));
      if (d) out.push(d);
    }
    return out;
  }

  /** A domain by id, whoever owns it (the scheduler's jobs). */
  async getById(id: string): Promise<SendingDomainRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM sending_domains WHERE id = ?').get(id) as SendingDomainRow | undefined;
    return row && toSendingDomain(row);
  }

  async insert(d: SendingDomainRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO sending_domains (id, account_id, domain, status, records, ever_verified, mode, created_at, verified_at, last_checked_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(d.id, d.accountId, d.domain, d.status, JSON.stringify(d.records), this.dialect.flag(d.everVerified), d.mode, d.createdAt, d.verifiedAt, d.lastCheckedAt, d.updatedAt);
  }

  /** Saves what a check changes (status, records' states, timestamps). */
  async save(d: SendingDomainRecord): Promise<void> {
    await this.db
      .prepare(
        `UPDATE sending_domains SET status = ?, records = ?, ever_verified = ?, verified_at = ?, last_checked_at = ?, updated_at = ?
          WHERE id = ?`,
      )
      .run(d.status, JSON.stringify(d.records), this.dialect.flag(d.everVerified), d.verifiedAt, d.lastCheckedAt, d.updatedAt, d.id);
  }

  /** Deletes the row (a removal or a release); true when it existed. */
  async delete(id: string): Promise<boolean> {
    return (await this.db.prepare('DELETE FROM sending_domains WHERE id = ?').run(id)).changes > 0;
  }

  /** The account's domains, newest first, optionally of one status. */
  async list(accountId: string, f: { status?: DomainStatus }, limit: number, cursor?: string): Promise<Page<SendingDomainRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    return await keysetPage<SendingDomainRow, SendingDomainRecord>(this.db, { from: 'sending_domains', where, params, limit, cursor, map: toSendingDomain });
  }
}
