import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { KEY_PREFIX } from '../../api/values/keys.js';
import { WEBHOOK_SECRET_PREFIX } from '../../api/values/webhooks.js';

/**
 * Credentials never reach server.log, wherever a client put them: a query
 * parameter (`?api_key=sk_live_…`), a path segment, an unusual header. The request is still logged,
 * with the secret part replaced.
 */
export const REDACTED = '[redacted]';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SECRET_PREFIXES = [KEY_PREFIX.live, KEY_PREFIX.test, WEBHOOK_SECRET_PREFIX].map(escape).join('|');
/** An API key or a webhook signing secret, anywhere in a string (case aside: a mangled key is still one). */
const SECRET = new RegExp(`(${SECRET_PREFIXES})[A-Za-z0-9]*`, 'gi');
const HAS_SECRET = new RegExp(`(${SECRET_PREFIXES})`, 'i');

/**
 * Names that announce a credential, in a query parameter or a header: their value is dropped whatever
 * it looks like (`?key=abc`, `X-Api-Key: …`, `Cookie`). Over-matching (`?keyword=`) only hides a value.
 */
const CREDENTIAL_NAME = /key|secret|token|passw|auth|signature|cookie|credential|session/i;

export const isCredentialName = (name: string): boolean => CREDENTIAL_NAME.test(name);

/** The secret part of every key or signing secret in `text` replaced; its prefix kept (it says which kind). */
export const scrubSecrets = (text: string): string => text.replace(SECRET, `$1${REDACTED}`);

/** Percent-decoding, repeated (a key may be encoded twice to slip past a filter); the input if broken. */
function decoded(raw: string): string {
  let s = raw;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
    if (next === s) return s;
    s = next;
  }
  return s;
}

/** One path segment or query component, redacted if it holds a secret in any encoding. */
function redactComponent(raw: string): string {
  if (HAS_SECRET.test(raw)) return scrubSecrets(raw);
  const plain = decoded(raw);
  return HAS_SECRET.test(plain) ? scrubSecrets(plain) : raw;
}

/** Does this URL carry something that looks like a credential (by name or by shape)? */
export function urlCarriesCredential(url: string): boolean {
  return redactUrl(url) !== url;
}

/** The URL as it may be logged: path segments and query values that hold a credential are replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).split('/').map(redactComponent).join('/');
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return redactComponent(pair);
      const name = pair.slice(0, eq);
      if (isCredentialName(decoded(name))) return `${redactComponent(name)}=${REDACTED}`;
      return `${redactComponent(name)}=${redactComponent(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Headers as they may be logged: credential-named ones dropped (an auth scheme kept), any other value scrubbed. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const one = (name: string, value: string): string => {
    if (isCredentialName(name)) {
      // "Bearer [redacted]" still tells a reader which scheme the client tried.
      const scheme = /^(Bearer|Basic|Digest)\s/i.exec(value);
      return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
    }
    return redactComponent(value);
  };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map((v) => one(name, v)) : one(name, String(value));
  }
  return out;
}

const scrubDeep = (value: unknown, depth = 0): unknown => {
  if (typeof value === 'string') return scrubSecrets(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isCredentialName(k) && typeof v === 'string' ? REDACTED : scrubDeep(v, depth + 1)]));
};

/** The logger's serializers: the request (method, redacted URL and headers, client), errors scrubbed. */
export const logSerializers = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
      headers: redactHeaders(req.headers),
    };
  },
  err(err: Error & { code?: unknown; statusCode?: unknown }) {
    // An error's message may quote a URL or a body field: scrubbed like everything else.
    return scrubDeep({ type: err?.constructor?.name ?? 'Error', message: err?.message, stack: err?.stack, code: err?.code, statusCode: err?.statusCode });
  },
};

/** The request logger of the local service (JSON lines; the detached service writes them to server.log). */
export function serviceLoggerOptions(): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: 'info',
    serializers: logSerializers,
    // Field names that always hold a secret, wherever an object logged carries them (the request's
    // headers are redacted by the serializer above, keeping the auth scheme).
    redact: { paths: ['*.secret', '*.key', '*.apiKey'], censor: REDACTED },
    // A message string is scrubbed too (a framework message may quote the URL).
    hooks: {
      logMethod(args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)));
      },
    },
  } as NonNullable<FastifyServerOptions['logger']>;
}
