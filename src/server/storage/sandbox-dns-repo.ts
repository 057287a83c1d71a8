import type { SandboxDnsEntry } from '../world/dns.js';
import type { KeyMode } from '../../api/values/keys.js';

// contract §9: the sandbox DNS table, one row per name (service-wide, like the DNS it stands in for).
// contract §2: each name keeps the mode of the key that last published it (migration 17); the
// resolver reads only the entry.

export interface SandboxDnsRepo {
  get(name: string): Promise<SandboxDnsEntry | undefined>;
  /** The mode of the key that last published the name, or undefined when it has no entry. */
  publishedWith(name: string): Promise<KeyMode | undefined>;
  /** Replaces the name's records, published with a key of `mode`. */
  put(entry: SandboxDnsEntry, mode: KeyMode): Promise<void>;
  /** True when the name had an entry. */
  delete(name: string): Promise<boolean>;
}
