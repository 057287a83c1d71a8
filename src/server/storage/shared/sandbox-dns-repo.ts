import type { KeyMode } from '../../../api/values/keys.js';
import type { Dialect, Statements } from './statements.js';
import { asIs, json, table, type Row } from './table.js';
import type { SandboxDnsEntry } from '../../world/dns.js';
import type { SandboxDnsRepo } from '../sandbox-dns-repo.js';

/** A name's entry and the mode of the key that published it (the resolver reads only the entry). */
const SANDBOX_DNS = table<SandboxDnsEntry & { mode: KeyMode }>('sandbox_dns', {
  name: asIs,
  records: json,
  visibleAt: asIs,
  updatedAt: asIs,
  mode: asIs,
});

const toEntry = (row: Row): SandboxDnsEntry => {
  const { mode: _mode, ...entry } = SANDBOX_DNS.read(row);
  return entry;
};

export class SqlSandboxDnsRepo implements SandboxDnsRepo {
  private readonly getStmt;
  private readonly putStmt;
  private readonly deleteStmt;
  constructor(
    db: Statements,
    protected readonly d: Dialect,
  ) {
    this.getStmt = db.prepare('SELECT * FROM sandbox_dns WHERE name = ?');
    this.putStmt = db.prepare(
      `${SANDBOX_DNS.insertSql()}
       ON CONFLICT(name) DO UPDATE SET records = excluded.records, visible_at = excluded.visible_at, updated_at = excluded.updated_at, mode = excluded.mode`,
    );
    this.deleteStmt = db.prepare('DELETE FROM sandbox_dns WHERE name = ?');
  }

  async get(name: string): Promise<SandboxDnsEntry | undefined> {
    const row = (await this.getStmt.get(name)) as Row | undefined;
    return row && toEntry(row);
  }

  async publishedWith(name: string): Promise<KeyMode | undefined> {
    const row = (await this.getStmt.get(name)) as Row | undefined;
    return row && SANDBOX_DNS.read(row).mode;
  }

  async put(entry: SandboxDnsEntry, mode: KeyMode): Promise<void> {
    await this.putStmt.run(...SANDBOX_DNS.values({ ...entry, mode }, this.d));
  }

  async delete(name: string): Promise<boolean> {
    return (await this.deleteStmt.run(name)).changes > 0;
  }
}
