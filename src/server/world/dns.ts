import type { Clock } from '../clock.js';
import type { DNS_RECORD_TYPES } from '../../api/values/email.js';

// contract §8: "DNS answers come from a resolver interface"; contract §9: on the local service, from
// the sandbox DNS table. The domain asks a DnsResolver and never knows where the answers come from; a
// real deployment would put a DNS client behind the same interface.

export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** One name and type as DNS answers it now. */
export type DnsAnswer =
  | { state: 'found'; values: string[] }
  /** The name was published but is not visible yet (contract §9 `visibleAfterSecs`). */
  | { state: 'propagating' }
  | { state: 'missing' };

export interface DnsResolver {
  resolve(name: string, type: DnsRecordType): Promise<DnsAnswer>;
}

/** A name's entry in the sandbox table: its records and the service-clock time they become visible. */
export interface SandboxDnsEntry {
  name: string;
  records: Array<{ type: DnsRecordType; value: string }>;
  visibleAt: number;
  updatedAt: number;
}

/**
 * contract §9: the sandbox's DNS. `lookup` reads the table (storage, wired by compose.ts); before an
 * entry's `visibleAt` on the service clock the name answers `propagating`. A visible name without a
 * record of the asked type answers `missing`, as a real resolver's NODATA would.
 */
export class SandboxDnsResolver implements DnsResolver {
  constructor(
    private readonly lookup: (name: string) => Promise<SandboxDnsEntry | undefined>,
    private readonly clock: Clock,
  ) {}

  async resolve(name: string, type: DnsRecordType): Promise<DnsAnswer> {
    const entry = await this.lookup(normalizeDnsName(name));
    if (!entry) return { state: 'missing' };
    if (this.clock.nowMs() < entry.visibleAt) return { state: 'propagating' };
    const values = entry.records.filter((r) => r.type === type).map((r) => r.value);
    return values.length ? { state: 'found', values } : { state: 'missing' };
  }
}

/** DNS names are case-insensitive; a trailing dot (fully qualified) is the same name. */
export const normalizeDnsName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, '');
