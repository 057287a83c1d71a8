// `-o zone`: a domain's DNS records as zone-file lines (RFC 1035 master file format) to paste into a
// DNS provider. Pure, no imports: tested beside it.

/** Decision: the TTL written for every record (an hour; providers accept and often rewrite it). */
export const ZONE_TTL = 3600;
/** Decision (no priority in contract §8's record): an MX value without one is written with 10. */
export const DEFAULT_MX_PRIORITY = 10;
/** RFC 1035 §3.3.14: one character-string of a TXT record holds at most 255 octets. */
const TXT_CHUNK = 255;

export interface ZoneRecord {
  type: string;
  name: string;
  value: string;
}

/** Fully qualified: `send.example.com` → `send.example.com.`. */
const fqdn = (name: string): string => (name.endsWith('.') ? name : `${name}.`);

/** A TXT value as quoted character-strings of at most 255 bytes each, quotes and backslashes escaped. */
export function txtStrings(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  const chunks: string[] = [];
  for (let i = 0; i < bytes.length || chunks.length === 0; i += TXT_CHUNK) chunks.push(bytes.subarray(i, i + TXT_CHUNK).toString('utf8'));
  return chunks.map((c) => `"${c.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`).join(' ');
}

function rdata(r: ZoneRecord): string {
  if (r.type === 'TXT') return txtStrings(r.value);
  if (r.type === 'MX') {
    const m = /^(\d+)\s+(\S+)$/.exec(r.value.trim());
    return m ? `${m[1]} ${fqdn(m[2]!)}` : `${DEFAULT_MX_PRIORITY} ${fqdn(r.value.trim())}`;
  }
  if (r.type === 'CNAME') return fqdn(r.value.trim());
  return r.value;
}

/** One line per record: `send.example.com. 3600 IN MX 10 feedback.example.net.`. */
export function zoneLines(records: readonly ZoneRecord[]): string[] {
  return records.map((r) => `${fqdn(r.name)} ${ZONE_TTL} IN ${r.type} ${rdata(r)}`);
}
