// The client's error types. main.ts imports this file to map errors to exit codes, so it must stay
// cheap: no undici, no zod (type-only imports are erased).
import type { ErrorEnvelope } from '../schemas/errors.js';

export interface ApiErrorInit {
  code: string;
  message: string;
  status: number;
  details?: unknown;
  requestId?: string;
  /** The body as received when it was not an error envelope (e.g. a proxy's HTML page). */
  rawBody?: string;
}

/**
 * A non-2xx answer from the service. `code` is the envelope's `error.code` (clients branch on it,
 * never on `message`; spec: Errors). `envelope` is what `-o json` prints on stderr.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  readonly requestId?: string;
  readonly rawBody?: string;
  /** What the user can do about it, in CLI terms: a command may add one before rethrowing. */
  hint?: string;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    if (init.details !== undefined) this.details = init.details;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.rawBody !== undefined) this.rawBody = init.rawBody;
  }

  get envelope(): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }

  /**
   * Builds the error from a response. An envelope `{error:{code,message,details?}}` is taken as is;
   * anything else (an HTML 502 from a proxy, an empty body) gets a code from the status.
   */
  static fromResponse(status: number, bodyText: string, requestId?: string): ApiError {
    const envelope = parseEnvelope(bodyText);
    if (envelope) {
      return new ApiError({
        code: envelope.error.code,
        message: envelope.error.message,
        status,
        details: envelope.error.details,
        requestId,
      });
    }
    const snippet = summariseBody(bodyText);
    return new ApiError({
      code: codeForStatus(status),
      message:
        `the server answered HTTP ${status} without an error envelope` + (snippet ? `: ${snippet}` : ' (empty body)'),
      status,
      requestId,
      rawBody: bodyText,
    });
  }
}

/** The endpoint could not be reached at all: refused, reset, timed out, DNS failure. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  /** The system or undici error code (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`, …), when known. */
  readonly code?: string;
  readonly baseUrl: string;
  readonly url: string;

  constructor(init: { baseUrl: string; url: string; cause: unknown }) {
    const code = errorCode(init.cause);
    const reason = code ?? (init.cause instanceof Error ? init.cause.message : String(init.cause));
    super(`could not reach ${init.baseUrl} (${reason})`, { cause: init.cause });
    this.baseUrl = init.baseUrl;
    this.url = init.url;
    if (code !== undefined) this.code = code;
  }
}

/** A 2xx response whose body did not match the schema the caller expected. */
export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
  readonly issues: { path: string; message: string }[];
  readonly requestId?: string;

  constructor(init: { method: string; path: string; issues: { path: string; message: string }[]; requestId?: string }) {
    const listed = init.issues.slice(0, 10).map((i) => `  ${i.path || '(root)'}: ${i.message}`);
    if (init.issues.length > 10) listed.push(`  … and ${init.issues.length - 10} more`);
    super(`the response to ${init.method} ${init.path} did not match the expected shape:\n${listed.join('\n')}`);
    this.issues = init.issues;
    if (init.requestId !== undefined) this.requestId = init.requestId;
  }
}

/** What `--dry-run` prints: the request that would have been sent. Headers are redacted. */
export interface RequestDescription {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The JSON body, or `{ bytes, contentType }` for a raw upload; absent without a body. */
  body?: unknown;
}

/**
 * Thrown by `ApiClient.request*` when the client is in dry-run mode, instead of sending anything.
 * The CLI catches it (main.ts), prints `request` and exits 0. Throwing (rather than returning) stops
 * a command at its first call, so nothing after it runs on data that was never fetched.
 */
export class DryRunSignal extends Error {
  override name = 'DryRunSignal';
  readonly request: RequestDescription;

  constructor(request: RequestDescription) {
    super(`dry run: ${request.method} ${request.url} was not sent`);
    this.request = request;
  }
}

/** Plain-text rendering of a dry-run request: request line, headers, blank line, JSON body. */
export function formatRequestDescription(d: RequestDescription): string {
  const lines = [`${d.method} ${d.url}`];
  for (const [name, value] of Object.entries(d.headers)) lines.push(`${name}: ${value}`);
  if (d.body !== undefined) lines.push('', JSON.stringify(d.body, null, 2));
  return lines.join('\n');
}

// Statuses whose code is unambiguous in the spec's table; 402 and 422 have two codes each.
const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'provider_error',
  503: 'service_unavailable',
  504: 'provider_error',
};

function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? 'internal_error';
}

function parseEnvelope(text: string): ErrorEnvelope | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const error = (value as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** A one-line hint of a non-envelope body: tags stripped, whitespace collapsed, 200 chars. */
function summariseBody(text: string): string {
  const plain = withoutTags(withoutScripts(text)).replace(/\s+/g, ' ').trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

// `/<(script|style)[\s\S]*?<\/\1>/gi` and `/<[^>]*>/g` retry from every opener never closed
// to the end of the text, so a megabyte of `<a ` from a misbehaving server would hold the command
// for minutes. The same results, each in one pass:

/** Every script and style element replaced by a space, as `/<(script|style)[\s\S]*?<\/\1>/gi` did. */
function withoutScripts(text: string): string {
  const opener = /<(script|style)/gi;
  const closers: Record<string, RegExp> = { script: /<\/script>/gi, style: /<\/style>/gi };
  // A kind with no closing tag after one opener has none after any later one: never searched again.
  const unclosed = new Set<string>();
  let out = '';
  let from = 0;
  for (let m = opener.exec(text); m; m = opener.exec(text)) {
    const kind = m[1]!.toLowerCase();
    if (unclosed.has(kind)) continue;
    const closer = closers[kind]!;
    closer.lastIndex = opener.lastIndex;
    if (!closer.exec(text)) {
      unclosed.add(kind);
      continue;
    }
    out += `${text.slice(from, m.index)} `;
    from = opener.lastIndex = closer.lastIndex;
  }
  return out + text.slice(from);
}

/** Every tag replaced by a space, as `/<[^>]*>/g` did: only up to the last `>` can a tag close. */
function withoutTags(text: string): string {
  const end = text.lastIndexOf('>') + 1;
  return text.slice(0, end).replace(/<[^>]*>/g, ' ') + text.slice(end);
}

/** The `code` of an error or of its causes (undici sometimes wraps the system error). */
export function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
