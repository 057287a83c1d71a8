import type { SandboxDnsEntry } from '../world/dns.js';

// contract §9: the sandbox DNS table, one row per name (service-wide, like the DNS it stands in for).

export interface SandboxDnsRepo {
  get(name: string): Promise<SandboxDnsEntry | undefined>;
  /** Replaces the name's records. */
  put(entry: SandboxDnsEntry): Promise<void>;
  /** True when the name had an entry. */
  delete(name: string): Promise<boolean>;
}

