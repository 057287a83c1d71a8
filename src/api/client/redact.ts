// Redaction for `--verbose` traces, `--dry-run` and `profiles show` (cli.md: keys and secrets
// redacted). No dependencies, so config/profile code can import it cheaply.

export const REDACTED = '[redacted]';

/** A field or header name that holds a secret (cli.md, --verbose). */
const SECRET_NAME = /key|secret|token|password/i;
/** A value that is a credential whatever its field is called: API keys, webhook secrets. */
const SECRET_VALUE = /^(?:sk|rk|pk)_(?:live|test)_\S+$|^whsec_\S+$/;
/** Headers that carry secrets without saying so in their name. */
const SECRET_HEADER = /key|secret|token|password|signature|cookie/i;
/** Not secrets despite the name: shown in traces because they help debugging. */
const PUBLIC_HEADERS = new Set(['idempotency-key']);

/**
 * `sk_live_0123…a1b2` → `sk_live_…a1b2`: the type prefix and the last 4 characters. Too short a
 * secret shows no tail at all, so the mask never gives away most of it.
 */
export function maskKey(key: string): string {
  const m = /^([A-Za-z]+_(?:(?:live|test)_)?)(.*)$/.exec(key);
  const prefix = m ? m[1]! : '';
  const rest = m ? m[2]! : key;
  return rest.length >= 12 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}

/**
 * A deep copy of a JSON value with secrets hidden: a string or number under a field whose name
 * matches /key|secret|token|password/i becomes `[redacted]`, and any string that looks like an
 * API key or webhook secret is masked wherever it sits.
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, undefined) as T;
}

function redactValue(value: unknown, name: string | undefined): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    if (name !== undefined && SECRET_NAME.test(name)) return REDACTED;
    if (typeof value === 'string' && SECRET_VALUE.test(value)) return maskKey(value);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, undefined));
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, k);
    return out;
  }
  return value;
}

/** Request or response headers for display: `Authorization: Bearer sk_live_…a1b2`, others hidden. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redactHeader(name, value);
  return out;
}

export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const m = /^(\S+)\s+(.*)$/.exec(value);
    return m ? `${m[1]} ${maskKey(m[2]!)}` : maskKey(value);
  }
  if (PUBLIC_HEADERS.has(lower)) return value;
  if (SECRET_HEADER.test(lower)) return REDACTED;
  return SECRET_VALUE.test(value) ? maskKey(value) : value;
}

/** A URL for display, with secret-looking query parameters hidden. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return SECRET_NAME.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}
