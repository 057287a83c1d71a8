import { DOMAIN_RECORD_FORMATS, REQUIRED_DNS_PURPOSES } from '../../../api/values/email.js';
import type { DnsRecordState } from '../../storage/sending-domains-repo.js';
import type { DnsAnswer, DnsRecordType } from '../../world/dns.js';

// contract §8: the DNS records a sending domain publishes, and how one DNS answer is judged. Pure.

/** The records to publish for `domain`, every one `pending` until the first check (formats: api/values/email.ts). */
export function recordsToPublish(domain: string, token: string, selector: string): DnsRecordState[] {
  const f = DOMAIN_RECORD_FORMATS;
  return [
    { purpose: 'verification', type: 'TXT', name: f.verificationName(domain), value: f.verificationValue(token), status: 'pending' },
    { purpose: 'spf', type: 'TXT', name: f.returnPathName(domain), value: f.spfValue, status: 'pending' },
    { purpose: 'dkim', type: 'CNAME', name: f.dkimName(selector, domain), value: f.dkimTarget(selector), status: 'pending' },
    { purpose: 'return_path', type: 'MX', name: f.returnPathName(domain), value: f.returnPathMx, status: 'pending' },
    { purpose: 'dmarc', type: 'TXT', name: f.dmarcName(domain), value: f.dmarcValue, status: 'pending' },
  ];
}

const squeeze = (s: string): string => s.trim().replace(/\s+/g, ' ');
/** A host name as DNS compares it: case-insensitive, the trailing dot of a fully qualified name dropped. */
const hostForm = (s: string): string => squeeze(s).toLowerCase().replace(/\.$/, '');

/**
 * Whether a published value matches the expected one. CNAME and MX hold names (case-insensitive, a
 * trailing dot allowed; MX as "priority host", whitespace-insensitive); TXT values are compared
 * trimmed, and the `v=` tags case-insensitively as SPF and DMARC readers do. Decision: a TXT value is
 * otherwise exact — the verification token must be copied as given.
 */
export function valueMatches(type: DnsRecordType, expected: string, published: string): boolean {
  if (type === 'CNAME' || type === 'MX') return hostForm(expected) === hostForm(published);
  const e = squeeze(expected);
  const p = squeeze(published).replace(/^"(.*)"$/, '$1');
  return e === p || (/^v=/i.test(e) && e.toLowerCase() === p.toLowerCase());
}

/** One record's state from the resolver's answer (contract §9: propagating → pending, no entry → missing). */
export function judgeRecord(record: Pick<DnsRecordState, 'type' | 'value'>, answer: DnsAnswer): DnsRecordState['status'] {
  if (answer.state === 'propagating') return 'pending';
  if (answer.state === 'missing') return 'missing';
  return answer.values.some((v) => valueMatches(record.type, record.value, v)) ? 'valid' : 'invalid';
}

/**
 * What a check found, from the required records only (DMARC is recommended: reported, never blocking).
 * spec: Sending domain status — a required record missing or wrong fails, even while another still
 * propagates; propagating alone keeps the status; all valid verifies.
 */
export type CheckOutcome = 'valid' | 'failing' | 'propagating';
export function checkOutcome(records: readonly DnsRecordState[]): CheckOutcome {
  const required = records.filter((r) => REQUIRED_DNS_PURPOSES.includes(r.purpose));
  if (required.some((r) => r.status === 'missing' || r.status === 'invalid')) return 'failing';
  if (required.some((r) => r.status === 'pending')) return 'propagating';
  return 'valid';
}
