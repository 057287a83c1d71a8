import type { Db } from './database.js';
import type { SandboxDnsEntry } from '../world/dns.js';
import type { KeyMode } from '../../api/values/keys.js';

// contract §9: the sandbox DNS table, one row per name (service-wide, like the DNS it stands in for).
// contract §2: each name keeps the mode of the key that last published it (migration 17); the
// resolver reads only the entry.

interface SandboxDnsRow {
  name: string;
  records: string;
  visible_at: number;
  updated_at: number;
  mode: KeyMode;
}

const toEntry = (r: SandboxDnsRow): SandboxDnsEntry => ({
  name: r.name,
  records: JSON.parse(r.records) as SandboxDnsEntry['records'],
  visibleAt: r.visible_at,
  updatedAt: r.updated_at,
});

export class SandboxDnsRepo {
  private readonly getStmt;
  private readonly putStmt;
  private readonly deleteStmt;
  constructor(db: Db) {
    this.getStmt = db.prepare('SELECT * FROM sandbox_dns WHERE name = ?');
    this.putStmt = db.prepare(
      `INSERT INTO sandbox_dns (name, records, visible_at, updated_at, mode) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET records = excluded.records, visible_at = excluded.visible_at, updated_at = excluded.updated_at, mode = excluded.mode`,
    );
    this.deleteStmt = db.prepare('DELETE FROM sandbox_dns WHERE name = ?');
  }

  get(name: string): SandboxDnsEntry | undefined {
    const row = this.getStmt.get(name) as SandboxDnsRow | undefined;
    return row && toEntry(row);
  }

  /** The mode of the key that last published the name, or undefined when it has no entry. */
  publishedWith(name: string): KeyMode | undefined {
    return (this.getStmt.get(name) as SandboxDnsRow | undefined)?.mode;
  }

  /** Replaces the name's records, published with a key of `mode`. */
  put(entry: SandboxDnsEntry, mode: KeyMode): void {
    this.putStmt.run(entry.name, JSON.stringify(entry.records), entry.visibleAt, entry.updatedAt, mode);
  }

  /** True when the name had an entry. */
  delete(name: string): boolean {
    return this.deleteStmt.run(name).changes > 0;
  }
}
