import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { HOSTNAME_LIMITS } from '../../../api/values/email.js';
import { PUBLIC_MAILBOX_PROVIDERS } from './public-mailbox-providers.js';

// spec: Email domains — "public mailbox providers, disposable domains, IP addresses and single-label
// hosts are rejected"; contract §8: a rejection is `400 validation_error` on `["body","domain"]`.
// Pure apart from reading the disposable lists once (lazily, on the first check, so the service starts
// without parsing 121k names). Each rule has its own reason and a message that names it.

export type DomainRejection = 'syntax' | 'ip_address' | 'single_label' | 'public_mailbox_provider' | 'disposable';

export type DomainVerdict = { ok: true; domain: string } | { ok: false; reason: DomainRejection; message: string };

/** Trimmed, lower-case, one trailing dot dropped (a fully qualified name is the same domain). */
export function normalizeDomainInput(input: string): string {
  return input.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * A domain name as sending_domains stores it (normalized, IDN → ASCII), for lookups such as the
 * send path's `from` domain; an unconvertible name is returned normalized (it then matches nothing).
 */
export function canonicalDomain(input: string): string {
  const normalized = normalizeDomainInput(input);
  return domainToASCII(normalized) || normalized;
}

const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** RFC 1035/1123 syntax of an ASCII name: labels 1-63 letters, digits and inner hyphens; ≤ 253 in all; the TLD not all digits. */
function syntaxProblem(ascii: string): string | undefined {
  if (ascii.length > HOSTNAME_LIMITS.nameChars) return `is ${ascii.length} characters long; a domain name has at most ${HOSTNAME_LIMITS.nameChars}`;
  const labels = ascii.split('.');
  for (const label of labels) {
    if (label.length === 0) return 'has an empty label (two dots in a row, or a leading dot)';
    if (label.length > HOSTNAME_LIMITS.labelChars) return `has a label of ${label.length} characters; a label has at most ${HOSTNAME_LIMITS.labelChars}`;
    if (!LDH_LABEL.test(label)) return `has an invalid label "${label}": letters, digits and hyphens only, not starting or ending with a hyphen`;
  }
  if (labels.length > 1 && /^\d+$/.test(labels[labels.length - 1]!)) return 'ends in an all-numeric label, which is not a top-level domain';
  return undefined;
}

/** The name and every parent domain of it with at least two labels: a.b.example.com → a.b.example.com, b.example.com, example.com. */
function selfAndParents(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

const PROVIDERS = new Set(PUBLIC_MAILBOX_PROVIDERS);

let disposable: { exact: Set<string>; wildcard: Set<string> } | undefined;
/** The `disposable-email-domains` lists, read on first use. */
function disposableLists(): { exact: Set<string>; wildcard: Set<string> } {
  if (!disposable) {
    const require = createRequire(import.meta.url);
    disposable = {
      exact: new Set(require('disposable-email-domains/index.json') as string[]),
      wildcard: new Set(require('disposable-email-domains/wildcard.json') as string[]),
    };
  }
  return disposable;
}

/** True once the disposable lists were read (the lazy-load test). */
export const disposableListsLoaded = (): boolean => disposable !== undefined;

/** Checks a requested sending domain; on success, the domain as it is stored (ASCII, lower-case). */
export function checkSendingDomain(input: string): DomainVerdict {
  const normalized = normalizeDomainInput(input);
  if (normalized.length === 0) return { ok: false, reason: 'syntax', message: 'is empty; give a domain such as example.com' };
  const bare = normalized.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return { ok: false, reason: 'ip_address', message: `${bare} is an IP address; add a domain name you own` };
  // IDN → ASCII (punycode). WHATWG host parsing also turns numeric forms (0x7f.1) into IPv4 addresses.
  const ascii = domainToASCII(normalized);
  if (ascii === '') return { ok: false, reason: 'syntax', message: `${normalized} is not a valid domain name` };
  if (isIP(ascii)) return { ok: false, reason: 'ip_address', message: `${normalized} is an IP address (${ascii}); add a domain name you own` };
  const problem = syntaxProblem(ascii);
  if (problem) return { ok: false, reason: 'syntax', message: `${ascii} ${problem}` };
  if (!ascii.includes('.')) return { ok: false, reason: 'single_label', message: `${ascii} is a single-label host; add a fully qualified domain such as ${ascii}.com` };

  const candidates = selfAndParents(ascii);
  const provider = candidates.find((c) => PROVIDERS.has(c));
  if (provider) {
    const what = provider === ascii ? ascii : `${ascii} is under ${provider}, which`;
    return { ok: false, reason: 'public_mailbox_provider', message: `${what} is a public mailbox provider; add a domain you own` };
  }
  const lists = disposableLists();
  const listed = candidates.find((c) => lists.exact.has(c) || lists.wildcard.has(c));
  if (listed) {
    const what = listed === ascii ? ascii : `${ascii} is under ${listed}, which`;
    return { ok: false, reason: 'disposable', message: `${what} is a disposable email domain; add a domain you own` };
  }
  return { ok: true, domain: ascii };
}
