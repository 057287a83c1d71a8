import type { Dialect, HeldReads, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { NumberRecord, NumberFilters, NumbersRepo } from '../numbers-repo.js';
import { COLUMNS, toRecord, toRow, type NumberRow } from '../rows/numbers.js';

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
    this.cache.changed();
    await this.d.guarded(this.db, async () => await this.insertStmt.run(...toRow(n, this.d.flag)));
  }

  /** Writes every mutable field of `n` (read, change, save inside one transaction). */
  async save(n: NumberRecord): Promise<void> {
    this.cache.changed();
    const values = toRow(n, this.d.flag);
    const named: Record<string, unknown> = {};
    COLUMNS.forEach((c, i) => (named[c] = values[i]));
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

  /** The account's record for an E.164 number: the owned one, else the latest released one. */
  async findByPhone(accountId: string, phoneNumber: string): Promise<NumberRecord | undefined> {
    const row = await this.cache.get(`${accountId} ${phoneNumber}`, async () => (await this.byPhoneStmt.get(accountId, phoneNumber)) as NumberRow | undefined);
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
