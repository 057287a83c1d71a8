// The sandbox-dns family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { KeyMode } from '../../../api/values/keys.js';
import type { SandboxDnsEntry } from '../../world/dns.js';

// contract §9: the sandbox DNS table, one row per name (service-wide, like the DNS it stands in for).

export interface SandboxDnsRow {
  name: string;
  records: string;
  visible_at: number;
  updated_at: number;
  mode: KeyMode;
}

export const toEntry = (r: SandboxDnsRow): SandboxDnsEntry => ({
  name: r.name,
  records: JSON.parse(r.records) as SandboxDnsEntry['records'],
  visibleAt: r.visible_at,
  updatedAt: r.updated_at,
});
