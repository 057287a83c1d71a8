import type { Dialect, HeldReads, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, json, table, yesNo, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { NumberRecord, NumberFilters, NumbersRepo } from '../numbers-repo.js';

/** A number as its row keeps it: each capability in a column of its own. */
type NumberColumns = Omit<NumberRecord, 'capabilities'> & { capSms: boolean; capMms: boolean; capVoice: boolean };

const NUMBERS = table<NumberColumns>('numbers', {
  id: asIs,
  accountId: asIs,
  phoneNumber: asIs,
  type: asIs,
  capSms: yesNo,
  capMms: yesNo,
  capVoice: yesNo,
  locality: asIs,
  region: asIs,
  label: asIs,
  status: asIs,
  campaignId: asIs,
  callerIdName: asIs,
  callerIdStatus: asIs,
  callerIdRequestedAt: asIs,
  emergencyEnabled: yesNo,
  emergencyAddress: json,
  emergencyStatus: asIs,
  emergencyRequestedAt: asIs,
  tfvStatus: asIs,
  tfvRejectionReason: asIs,
  tfvSubmission: json,
  tfvSubmittedAt: asIs,
  releasedAt: asIs,
  mode: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

/** Everything but the identity columns is mutable. */
const MUTABLE = NUMBERS.fields.filter((f) => !['id', 'accountId', 'phoneNumber', 'type', 'mode', 'createdAt'].includes(f));

const toRecord = (row: Row): NumberRecord => {
  const { capSms, capMms, capVoice, ...n } = NUMBERS.read(row);
  return { ...n, capabilities: { sms: capSms, mms: capMms, voice: capVoice } };
};

const toColumns = (n: NumberRecord): NumberColumns => ({ ...n, capSms: n.capabilities.sms, capMms: n.capabilities.mms, capVoice: n.capabilities.voice });

export class SqlNumbersRepo implements NumbersRepo {
  private readonly insertStmt;
  private readonly saveStmt;
  private readonly ownedStmt;
  private readonly byPhoneStmt;
  /**
   * Rows by (account, phone) (Dialect.heldReads): every send and every inbound message looks its
   * number up by phone (5-6 % of a send's CPU on SQLite, a sort included; a round trip per send on
   * PostgreSQL). Rows, not records, are held: each hit builds a fresh record, so a caller that changes
   * a nested field (capabilities, the emergency address) cannot change what the next one reads.
   * Every write to the table goes through insert and save below, which forget them.
   */
  readonly cache: HeldReads;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    this.cache = d.heldReads(db, 'numbers-by-phone');
    this.insertStmt = db.prepare(NUMBERS.insertSql());
    this.saveStmt = db.prepare(`UPDATE numbers SET ${NUMBERS.setSql(MUTABLE)} WHERE id = ?`);
    this.ownedStmt = db.prepare("SELECT 1 FROM numbers WHERE phone_number = ? AND status != 'released' LIMIT 1");
    // The owned record first; else the most recently released one (so a released number answers 409, not 404).
    this.byPhoneStmt = db.prepare(
      "SELECT * FROM numbers WHERE account_id = ? AND phone_number = ? ORDER BY (status = 'released'), seq DESC LIMIT 1",
    );
  }

  async insert(n: NumberRecord): Promise<void> {
    this.cache.changed();
    await this.d.guarded(this.db, async () => await this.insertStmt.run(...NUMBERS.values(toColumns(n), this.d)));
  }

  async save(n: NumberRecord): Promise<void> {
    this.cache.changed();
    await this.saveStmt.run(...NUMBERS.values(toColumns(n), this.d, MUTABLE), n.id);
  }

  async get(accountId: string, id: string): Promise<NumberRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM numbers WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return row && toRecord(row);
  }

  async getById(id: string): Promise<NumberRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM numbers WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  async findByPhone(accountId: string, phoneNumber: string): Promise<NumberRecord | undefined> {
    const row = await this.cache.get(`${accountId} ${phoneNumber}`, async () => (await this.byPhoneStmt.get(accountId, phoneNumber)) as Row | undefined);
    return row && toRecord(row);
  }

  async isOwned(phoneNumber: string): Promise<boolean> {
    return await this.ownedStmt.get(phoneNumber) !== undefined;
  }

  async list(accountId: string, f: NumberFilters, limit: number, cursor?: string): Promise<Page<NumberRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    // contract §5: released numbers are listed only with status=released.
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    } else {
      where.push("status != 'released'");
    }
    if (f.type) {
      where.push('type = ?');
      params.push(f.type);
    }
    if (f.campaignId) {
      where.push('campaign_id = ?');
      params.push(f.campaignId);
    }
    return await keysetPage(this.db, { from: 'numbers', where, params, limit, cursor, map: toRecord });
  }

  async countOwned(accountId: string): Promise<number> {
    return (await this.db.prepare("SELECT COUNT(*) AS n FROM numbers WHERE account_id = ? AND status != 'released'").get(accountId) as { n: number }).n;
  }
}
