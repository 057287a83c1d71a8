import type { Sql } from './sql.js';
import { keysetPage } from '../shared/keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { NumberRecord, NumberFilters, NumbersRepo } from '../numbers-repo.js';
import { COLUMNS, toRecord, toRow, type NumberRow } from '../rows/numbers.js';

/** The `Sql.once` keys of `findByPhone`. */
const BY_PHONE = 'numbers-by-phone:';

export class PgNumbersRepo implements NumbersRepo {
  private readonly insertStmt;
  private readonly saveStmt;
  private readonly ownedStmt;
  private readonly byPhoneStmt;
  constructor(private readonly db: Sql) {
    this.insertStmt = db.prepare(`INSERT INTO numbers (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
    // Everything but the identity columns is mutable.
    const mutable = COLUMNS.filter((c) => !['id', 'account_id', 'phone_number', 'type', 'mode', 'created_at'].includes(c));
    this.saveStmt = db.prepare(`UPDATE numbers SET ${mutable.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`);
    this.ownedStmt = db.prepare("SELECT 1 FROM numbers WHERE phone_number = ? AND status != 'released' LIMIT 1");
    // The owned record first; else the most recently released one (so a released number answers 409, not 404).
    this.byPhoneStmt = db.prepare(
      "SELECT * FROM numbers WHERE account_id = ? AND phone_number = ? ORDER BY (status = 'released'), seq DESC LIMIT 1",
    );
  }

  /** Throws UniqueConstraintError when the number is owned already (the partial unique index). */
  async insert(n: NumberRecord): Promise<void> {
    // In a savepoint of its own: PostgreSQL aborts the whole transaction on a failed statement, and
    // the caller may catch the violation and go on (sql.ts translates it to UniqueConstraintError).
    this.db.forget(BY_PHONE);
    await this.db.guarded(() => this.insertStmt.run(...toRow(n, (v) => v)));
  }

  /** Writes every mutable field of `n` (read, change, save inside one transaction). */
  async save(n: NumberRecord): Promise<void> {
    const values = toRow(n, (v) => v);
    const named: Record<string, unknown> = {};
    COLUMNS.forEach((c, i) => (named[c] = values[i]));
    this.db.forget(BY_PHONE);
    await this.saveStmt.run(named);
  }

  async get(accountId: string, id: string): Promise<NumberRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM numbers WHERE id = ? AND account_id = ?').get(id, accountId) as NumberRow | undefined;
    return row && toRecord(row);
  }

  /** For durable jobs, which act on a number whatever the account. */
  async getById(id: string): Promise<NumberRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM numbers WHERE id = ?').get(id) as NumberRow | undefined;
    return row && toRecord(row);
  }

  /**
   * The account's record for an E.164 number: the owned one, else the latest released one. Read once
   * per transaction (`Sql.once`; this repository's writes forget it): the writes of a group commit
   * (store.ts) sending from one number read it once between them. A copy each time: a
   * caller may change the record it got.
   */
  async findByPhone(accountId: string, phoneNumber: string): Promise<NumberRecord | undefined> {
    const row = await this.db.once(`${BY_PHONE}${accountId} ${phoneNumber}`, async () => (await this.byPhoneStmt.get(accountId, phoneNumber)) as NumberRow | undefined);
    return row && toRecord(row);
  }

  /** contract §5: true when any account owns the number (search never offers it, buy refuses it). */
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
    return await keysetPage<NumberRow, NumberRecord>(this.db, { from: 'numbers', where, params, limit, cursor, map: toRecord });
  }

  async countOwned(accountId: string): Promise<number> {
    return (await this.db.prepare("SELECT COUNT(*) AS n FROM numbers WHERE account_id = ? AND status != 'released'").get(accountId) as { n: number }).n;
  }
}
