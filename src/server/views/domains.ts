import { iso, isoOrNull } from '../clock.js';
import type { Domain, SandboxDnsEntry as SandboxDnsEntryView } from '../../api/schemas/email.js';
import type { SendingDomainRecord } from '../storage/sending-domains-repo.js';
import type { SandboxDnsEntry } from '../world/dns.js';

// Records → API shapes for sending domains and the sandbox DNS table (contract §8, §9). Rules for
// reads: views/README.md.

export const domainView = (d: SendingDomainRecord): Domain => ({
  id: d.id,
  domain: d.domain,
  status: d.status,
  records: d.records.map((r) => ({ type: r.type, name: r.name, value: r.value, purpose: r.purpose, status: r.status })),
  createdAt: iso(d.createdAt),
  verifiedAt: isoOrNull(d.verifiedAt),
  lastCheckedAt: isoOrNull(d.lastCheckedAt),
});

export const sandboxDnsView = (e: SandboxDnsEntry, now: number): SandboxDnsEntryView => ({
  name: e.name,
  records: e.records.map((r) => ({ type: r.type, value: r.value })),
  visibleAt: iso(e.visibleAt),
  propagating: now < e.visibleAt,
  updatedAt: iso(e.updatedAt),
});
