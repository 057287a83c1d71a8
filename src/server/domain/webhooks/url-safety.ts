import { isIP } from 'node:net';

// contract §10: a webhook URL must be https, except loopback hosts (localhost, 127.0.0.0/8, [::1])
// which may be http. Private, link-local, metadata and unspecified addresses are refused, at create
// and update time for literal addresses and names, and again at delivery time for what a name
// resolves to (a name can point anywhere, and can change).

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

const CLASS_WORDS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

export const describeAddressClass = (c: Exclude<AddressClass, 'public'>): string => CLASS_WORDS[c];

function parseV4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

const v4InRange = (n: number, base: string, bits: number): boolean => {
  const b = parseV4(base)!;
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(b / size);
};

/** IPv4 rules. The metadata address is checked before its enclosing link-local range. */
function classifyV4(n: number): AddressClass {
  if (n === parseV4('169.254.169.254') || n === parseV4('100.100.100.200') || n === parseV4('192.0.0.192')) return 'metadata';
  if (v4InRange(n, '0.0.0.0', 8)) return 'unspecified';
  if (v4InRange(n, '127.0.0.0', 8)) return 'loopback';
  if (v4InRange(n, '10.0.0.0', 8) || v4InRange(n, '172.16.0.0', 12) || v4InRange(n, '192.168.0.0', 16)) return 'private';
  if (v4InRange(n, '100.64.0.0', 10)) return 'private'; // shared address space (carrier-grade NAT)
  if (v4InRange(n, '169.254.0.0', 16)) return 'link_local';
  if (v4InRange(n, '192.0.0.0', 24) || v4InRange(n, '198.18.0.0', 15) || v4InRange(n, '240.0.0.0', 4)) return 'reserved';
  if (v4InRange(n, '224.0.0.0', 4)) return 'multicast';
  return 'public';
}

/** 16 bytes of an IPv6 address (an embedded dotted IPv4 tail allowed), or undefined. */
function parseV6(ip: string): number[] | undefined {
  let text = ip.toLowerCase().split('%')[0]!;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseV4(last);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const toNums = (s: string | undefined) => (s ? s.split(':').map((x) => (/^[0-9a-f]{1,4}$/.test(x) ? parseInt(x, 16) : NaN)) : []);
  const head = toNums(halves[0]);
  const rest = toNums(halves[1]);
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  let words: number[];
  if (halves.length === 2) {
    const zeros = 8 - head.length - rest.length;
    if (zeros < 1) return undefined;
    words = [...head, ...new Array<number>(zeros).fill(0), ...rest];
  } else {
    if (head.length !== 8) return undefined;
    words = head;
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function classifyV6(bytes: number[]): AddressClass {
  const isZero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const v4At = (i: number) => ((bytes[i]! << 24) >>> 0) + (bytes[i + 1]! << 16) + (bytes[i + 2]! << 8) + bytes[i + 3]!;
  if (isZero(0, 16)) return 'unspecified';
  if (isZero(0, 15) && bytes[15] === 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d and NAT64 64:ff9b::a.b.c.d carry an IPv4 destination.
  if (isZero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyV4(v4At(12));
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && isZero(4, 12)) return classifyV4(v4At(12));
  // 6to4 2002:AABB:CCDD::/48 embeds an IPv4 router address.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    const inner = classifyV4(v4At(2));
    if (inner !== 'public') return inner;
  }
  if (bytes[0] === 0xfd && bytes[1] === 0x00 && bytes[2] === 0x0e && bytes[3] === 0xc2) return 'metadata'; // fd00:ec2::/32 (AWS)
  if ((bytes[0]! & 0xfe) === 0xfc) return 'private'; // fc00::/7 unique local
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'link_local'; // fe80::/10
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return 'private'; // fec0::/10 site-local (deprecated)
  if (bytes[0] === 0xff) return 'multicast';
  if (isZero(0, 12)) return 'reserved'; // IPv4-compatible ::a.b.c.d (deprecated)
  return 'public';
}

/** Classifies an IP literal (no brackets); undefined when it is not an IP address. */
export function classifyAddress(ip: string): AddressClass | undefined {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return classifyV4(parseV4(bare)!);
  if (family === 6) {
    const bytes = parseV6(bare);
    return bytes ? classifyV6(bytes) : 'reserved';
  }
  return undefined;
}

// Names that are metadata services wherever they resolve, and private-use names (ICANN reserved
// `.internal` for private use; `.local` is mDNS, link-local by definition; `home.arpa` is RFC 8375).
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com']);
const PRIVATE_SUFFIXES = ['.internal', '.local', '.home.arpa', '.lan', '.intranet', '.corp'];

/** `localhost` and names under it always mean this machine (RFC 6761). */
export const isLoopbackName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** Whether a URL points at this machine (a loopback address or name): what it sends stays here. */
export function isLoopbackUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const host = urlHost(url);
  const cls = classifyAddress(host);
  return cls === 'loopback' || (cls === undefined && isLoopbackName(host));
}

export interface UrlCheck {
  ok: boolean;
  /** Why it was refused (for a validation error's message). */
  reason?: string;
  url?: URL;
}

const normalizeHost = (hostname: string): string => {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  while (h.endsWith('.')) h = h.slice(0, -1);
  return h;
};

/** The host of a URL, lower-case, without brackets or a trailing dot. */
export const urlHost = (url: URL): string => normalizeHost(url.hostname);

/**
 * The create/update check: scheme, then what the host is on its face (an IP literal or a known
 * name). A name that resolves somewhere forbidden is caught at delivery (checkResolvedAddresses).
 */
export function checkWebhookUrl(raw: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute https URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must be an https URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials; receivers authenticate deliveries by their signature' };
  const host = urlHost(url);
  if (!host) return { ok: false, reason: 'must name a host' };
  const cls = classifyAddress(host);
  const loopback = cls === 'loopback' || (cls === undefined && isLoopbackName(host));
  // Where the URL points is checked before its scheme: `http://10.0.0.5/` is refused for being
  // private, which https would not fix, so the reason names the address, not the scheme.
  if (cls !== undefined && cls !== 'public' && cls !== 'loopback') {
    return { ok: false, reason: `points at ${describeAddressClass(cls)} (${host}); webhooks must reach a public host or loopback` };
  }
  if (cls === undefined && !loopback) {
    if (METADATA_NAMES.has(host)) return { ok: false, reason: `points at a cloud metadata service (${host})` };
    if (!host.includes('.')) return { ok: false, reason: `is a single-label name (${host}) resolved through local search domains; use a fully qualified public name` };
    if (PRIVATE_SUFFIXES.some((s) => host.endsWith(s))) return { ok: false, reason: `names a private-use domain (${host}); webhooks must reach a public host` };
  }
  if (url.protocol === 'http:' && !loopback) {
    return { ok: false, reason: 'must use https; http is allowed only for loopback hosts (localhost, 127.0.0.0/8, [::1])' };
  }
  return { ok: true, url };
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The delivery-time check on what a name resolved to. Every address must be allowed (a name with one
 * private address among public ones is refused). Loopback answers are accepted only for loopback
 * names (`localhost`): a public name resolving to 127.0.0.1 would reach this machine's services.
 * Returns the refusal reason or null.
 */
export function checkResolvedAddresses(host: string, addresses: ResolvedAddress[]): string | null {
  if (addresses.length === 0) return `${host} did not resolve to any address`;
  const loopbackName = isLoopbackName(host);
  for (const a of addresses) {
    const cls = classifyAddress(a.address) ?? 'reserved';
    if (cls === 'public' && !loopbackName) continue;
    if (cls === 'loopback') {
      if (loopbackName) continue;
      return `${host} resolves to a loopback address (${a.address}); only loopback hosts such as localhost may`;
    }
    if (loopbackName) return `${host} must resolve to loopback, not ${a.address}`;
    return `${host} resolves to ${describeAddressClass(cls as Exclude<AddressClass, 'public'>)} (${a.address}); refused`;
  }
  return null;
}

/** A sink's path (contract §10): `/sinks/` and its id, nothing more. */
const SINK_PATH = /^\/sinks\/snk_[A-Za-z0-9]{1,64}$/;

/**
 * contract §10 (extension): a sink's URL is the service's own address, which is not always loopback
 * (a service listening on a LAN address). Exactly that: an origin this process listens on (never
 * one a request or a stored row named) and a sink's path, with no query, no fragment and no
 * credentials, is the service itself; the address rules above still refuse every other URL at it.
 */
export function isOwnSinkUrl(url: URL, ownOrigins: ReadonlySet<string>): boolean {
  return ownOrigins.has(url.origin) && SINK_PATH.test(url.pathname) && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
}
