import type { Dialect, Statements } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import { keysetPage } from './keyset-page.js';
import type { DomainStatus } from '../../../api/values/email.js';
import type { SendingDomainRecord, SendingDomainsRepo } from '../sending-domains-repo.js';
import { asIs, json, table, yesNo, type Row } from './table.js';

const SENDING_DOMAINS = table<SendingDomainRecord>('sending_domains', {
  id: asIs,
  accountId: asIs,
  domain: asIs,
  status: asIs,
  records: json,
  everVerified: yesNo,
  mode: asIs,
  createdAt: asIs,
  verifiedAt: asIs,
  lastCheckedAt: asIs,
  updatedAt: asIs,
});

/** What a check changes. */
const CHECKED = ['status', 'records', 'everVerified', 'verifiedAt', 'lastCheckedAt', 'updatedAt'] as const;

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

  async get(accountId: string, id: string): Promise<SendingDomainRecord | undefined> {
    const row = (await this.getStmt.get(id, accountId)) as Row | undefined;
    return row && SENDING_DOMAINS.read(row);
  }

  async findByDomain(domain: string): Promise<SendingDomainRecord | undefined> {
    const row = (await this.byNameStmt.get(domain)) as Row | undefined;
    return row && SENDING_DOMAINS.read(row);
  }

  async claimsOver(name: string): Promise<SendingDomainRecord[]> {
    const labels = name.split('.');
    const out: SendingDomainRecord[] = [];
    for (let i = 0; i < labels.length - 1; i++) {
      const d = await this.findByDomain(labels.slice(i).join('.'));
      if (d) out.push(d);
    }
    return out;
  }

  async getById(id: string): Promise<SendingDomainRecord | undefined> {
    const row = (await this.db.prepare('SELECT * FROM sending_domains WHERE id = ?').get(id)) as Row | undefined;
    return row && SENDING_DOMAINS.read(row);
  }

  async insert(d: SendingDomainRecord): Promise<void> {
    await this.db.prepare(SENDING_DOMAINS.insertSql()).run(...SENDING_DOMAINS.values(d, this.dialect));
  }

  async save(d: SendingDomainRecord): Promise<void> {
    await this.db
      .prepare(`UPDATE sending_domains SET ${SENDING_DOMAINS.setSql(CHECKED)} WHERE id = ?`)
      .run(...SENDING_DOMAINS.values(d, this.dialect, CHECKED), d.id);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.prepare('DELETE FROM sending_domains WHERE id = ?').run(id)).changes > 0;
  }

  async list(accountId: string, f: { status?: DomainStatus }, limit: number, cursor?: string): Promise<Page<SendingDomainRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    return await keysetPage(this.db, { from: 'sending_domains', where, params, limit, cursor, map: SENDING_DOMAINS.read });
  }
}
