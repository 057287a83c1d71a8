import type { Sql } from './sql.js';
import type { KeyRecord } from '../keys-repo.js';
import type { AccountRecord, AccountsRepo } from '../accounts-repo.js';
import { KEYS } from '../shared/keys-repo.js';
import { ACCOUNTS } from '../shared/accounts-repo.js';
import { SqlKeysRepo } from '../shared/keys-repo.js';
import type { Row } from '../shared/table.js';
import { pgDialect } from './dialect.js';

/**
 * The keys written once (shared/keys-repo.ts), with authentication's key and account read in one
 * statement: every request authenticates, and here each read is a round trip (SQLite reads both
 * from its caches instead).
 */
export class PgKeysRepo extends SqlKeysRepo {
  private readonly withAccount;
  constructor(db: Sql, accounts: Pick<AccountsRepo, 'get'>) {
    super(db, pgDialect, accounts);
    // One statement, so one consistent snapshot with no transaction around it. Each row as
    // jsonb: the two tables share column names, and every column keeps its name and type (bigint
    // times are far inside JSON's exact integers; the flag stays a boolean).
    this.withAccount = db.prepare('SELECT to_jsonb(k) AS key, to_jsonb(a) AS account FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?');
  }

  override async findWithAccount(hash: string): Promise<{ key: KeyRecord; account: AccountRecord | undefined } | undefined> {
    const row = (await this.withAccount.get(hash)) as { key: Row; account: Row | null } | undefined;
    return row && { key: KEYS.read(row.key), account: row.account ? ACCOUNTS.read(row.account) : undefined };
  }
}
