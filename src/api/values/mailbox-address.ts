// One bare mailbox address (an RFC 5322 addr-spec, `name@example.com`), checked without zod: the email
// family's parser (spec: Send email body) and a brand's `email` and `businessContactEmail` (contract §7)
// read the same rule. Not accepted: quoted local parts, IP-literal domains, a domain without a dot.

// RFC 5322 atext, the characters of an unquoted local-part word.
const LOCAL_WORD = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
// One DNS label: letters, digits and inner hyphens (RFC 1035 host names).
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** The reason `address` is not a valid bare address (addr-spec), or null when it is one. */
export function addressProblem(address: string): string | null {
  if (address.length > 254) return 'an address is at most 254 characters';
  const at = address.lastIndexOf('@');
  if (at < 0) return 'an address needs an @';
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (!local) return 'the part before @ is empty';
  if (local.length > 64) return 'the part before @ is at most 64 characters';
  if (local.split('.').some((w) => !LOCAL_WORD.test(w))) return `"${local}" is not a valid local part (no quotes, spaces or empty dot-separated parts)`;
  if (!domain) return 'the domain after @ is empty';
  if (domain.length > 253) return 'the domain is at most 253 characters';
  const labels = domain.split('.');
  if (labels.length < 2) return `"${domain}" is not a full domain name (it needs a dot)`;
  if (labels.some((l) => l.length > 63 || !LABEL.test(l))) return `"${domain}" is not a valid domain name`;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return `"${domain}" is not a valid domain name (the last label is numeric)`;
  return null;
}
