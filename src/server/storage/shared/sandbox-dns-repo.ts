import type { KeyMode } from '../../../api/values/keys.js';
import type { Dialect, Statements } from './statements.js';
import type { SandboxDnsEntry } from '../../world/dns.js';
import type { SandboxDnsRepo } from '../sandbox-dns-repo.js';
import { SandboxDnsRow, toEntry } from '../rows/sandbox-dns.js';

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
      `INSERT INTO sandbox_dns (name, records, visible_at, updated_at, mode) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET records = excluded.records, visible_at = excluded.visible_at, updated_at = excluded.updated_at, mode = excluded.mode`,
    );
    this.deleteStmt = db.prepare('DELETE FROM sandbox_dns WHERE name = ?');
  }

  async get(name: string): Promise<SandboxDnsEntry | undefined> {
    const row = await this.getStmt.get(name) as SandboxDnsRow | undefined;
    return row && toEntry(row);
  }

  /** Replaces the name's records. */
  async publishedWith(name: string): Promise<KeyMode | undefined> {
    return (await this.getStmt.get(name) as SandboxDnsRow | undefined)?.mode;
  }

  async put(entry: SandboxDnsEntry, mode: KeyMode): Promise<void> {
    await this.putStmt.run(entry.name, JSON.stringify(entry.records), entry.visibleAt, entry.updatedAt, mode);
  }


  /** True when the name had an entry. */
  async delete(name: string): Promise<boolean> {
    return (await this.deleteStmt.run(name)).changes > 0;
  }
}
