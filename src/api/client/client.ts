// The HTTP client every API call goes through: base URL, auth, sub-account, idempotency, retries,
// error envelopes, `--verbose` traces and `--dry-run`. It sends with node:http (transport.ts), or
// through an injected undici Dispatcher so tests can use undici's MockAgent (conventions: a fake
// HTTP layer is for the client's retry and error paths).
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { dispatcherTransport, nodeTransport, type Transport } from './transport.js';
import type { Page } from '../schemas/page.js';
import { SERVICE_TIME_HEADER } from '../values/sandbox.js';
import {
  ApiError,
  DryRunSignal,
  NetworkError,
  ResponseShapeError,
  type RequestDescription,
} from './errors.js';
import { redactHeader, redactSecrets, redactUrl } from './redact.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;
export type Query = Record<string, QueryValue>;
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/**
 * What parses a response: any object with zod's `safeParse` shape. Zod schemas satisfy it, and so do
 * the compiled parsers of api/parsers.ts, which the CLI uses so that it never loads zod (start-up
 * budget).
 */
export interface ResponseParser<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Sent as `Service-Subaccount` (contract §3). */
  subaccount?: string;
  /** undici Dispatcher (a MockAgent in tests); node:http with keep-alive agents of our own otherwise. */
  dispatcher?: Dispatcher;
  /** Full User-Agent; default `svc/<version>`. */
  userAgent?: string;
  version?: string;
  /** Tries per call, the first included (cli.md: "3 tries"). */
  maxAttempts?: number;
  /** Headers and body timeout of one attempt; a long-poll passes its own per request. */
  timeoutMs?: number;
  /** `--verbose`: receives the HTTP trace one line at a time, secrets redacted. */
  trace?: (line: string) => void;
  /** `--dry-run`: every request throws a DryRunSignal instead of being sent. */
  dryRun?: boolean;
  /** Injected for tests; default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Injected for tests; default Math.random (jitter). */
  random?: () => number;
  /** Injected for tests; default performance.now (trace timings). */
  now?: () => number;
  /** Cancels every request of this client (Ctrl-C). */
  signal?: AbortSignal;
  /**
   * Told of every JSON call that succeeded (2xx), after it is decoded: `svc fixtures run` learns what
   * an `svc:` step created, whatever requests the verb made, to undo them with --cleanup.
   */
  observe?: (exchange: ObservedExchange) => void;
}

/** A JSON call that succeeded, as `observe` is told of it. */
export interface ObservedExchange {
  method: HttpMethod;
  /** As requested (`/v1/numbers/buy`), without the query. */
  path: string;
  status: number;
  data: unknown;
  /** The Service-Subaccount it was sent with, if any. */
  subaccount?: string;
}

export interface RequestOptions<T = unknown> {
  method: HttpMethod;
  /** `/v1/...` joined to the base URL; an absolute URL is used as is (auth only on the same origin). */
  path: string;
  query?: Query;
  /** A JSON value, or a Buffer/Uint8Array sent as is with `contentType`. */
  body?: unknown;
  /** Content-Type of a raw Buffer body (`audio/mpeg`…); default application/octet-stream. */
  contentType?: string;
  /** Extra headers; they override the defaults (e.g. `Accept`). */
  headers?: Record<string, string>;
  /** Every POST gets one (generated unless given); other methods only when given. */
  idempotencyKey?: string;
  /** Parses a JSON response; a mismatch throws ResponseShapeError. */
  schema?: ResponseParser<T>;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxAttempts?: number;
  /**
   * Never send Service-Subaccount: agency-level routes (/v1/subaccounts, /v1/agency) reject it, and
   * service-wide sandbox acts (clock advance, payments fail-next) refuse it: they belong to
   * no one account, so the key acts as its own account whatever the context.
   */
  agencyLevel?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: ResponseHeaders;
  requestId?: string;
}

export interface RawResponse extends ApiResponse<Buffer> {
  contentType?: string;
}

/** A 2xx binary body not yet read: consume `body` (or destroy it) so the socket is freed. */
export interface StreamResponse extends Omit<ApiResponse<never>, 'data'> {
  body: AsyncIterable<Uint8Array> & { destroy(err?: Error): void };
  contentType?: string;
}

const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_TIMEOUT_MS = 60_000;
// cli.md Retries: exponential backoff with full jitter.
const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 5_000;
const RETRY_AFTER_CAP_MS = 30_000;
const RETRY_STATUSES = new Set([429, 500, 502, 503]);
const TRACE_BODY_MAX = 2_000;

/** Errors that mean the server was not reached (or the connection died): retried. */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
/** Not reachable, but retrying will not help. */
const FATAL_NETWORK_CODES = new Set(['ENOTFOUND', 'EHOSTDOWN', 'ENETDOWN']);

interface PreparedRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What a description/trace shows as the body. */
  shownBody?: unknown;
}

interface Received {
  status: number;
  headers: ResponseHeaders;
  body: Buffer;
  requestId?: string;
  /** A 2xx body left unread (streamed downloads). */
  stream?: StreamResponse['body'];
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly opts: ApiClientOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  /**
   * The service clock minus ours, from the last response's Service-Time header (0 until one is
   * seen): the sandbox clock may be advanced days ahead of the wall clock.
   */
  serviceClockOffsetMs = 0;

  constructor(opts: ApiClientOptions) {
    this.opts = opts;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.sleep = opts.sleep ?? ((ms) => delay(ms));
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? (() => performance.now());
  }

  get dryRun(): boolean {
    return this.opts.dryRun === true;
  }

  /** The same client sending for real: what a dry run reads to show its change (never for writes). */
  withoutDryRun(): ApiClient {
    return this.opts.dryRun ? new ApiClient({ ...this.opts, dryRun: false }) : this;
  }

  /** A JSON call. Non-2xx throws ApiError; a 204 or empty body gives `data: undefined`. */
  async request<T = unknown>(opts: RequestOptions<T>): Promise<ApiResponse<T>> {
    const prepared = this.prepare(opts, 'application/json');
    const res = await this.send(prepared, opts);
    const data = this.decode(res, opts);
    if (this.opts.observe) {
      const subaccount = Object.entries(prepared.headers).find(([name]) => name.toLowerCase() === 'service-subaccount')?.[1];
      this.opts.observe({ method: opts.method, path: opts.path.split('?')[0]!, status: res.status, data, ...(subaccount ? { subaccount } : {}) });
    }
    return { data, status: res.status, headers: res.headers, requestId: res.requestId };
  }

  /** A binary call (recordings, voicemail audio): the body as a Buffer with its Content-Type. */
  async requestRaw(opts: Omit<RequestOptions<never>, 'schema'>): Promise<RawResponse> {
    const prepared = this.prepare(opts, '*/*');
    const res = await this.send(prepared, opts, true);
    const contentType = headerValue(res.headers, 'content-type');
    return { data: res.body, status: res.status, headers: res.headers, requestId: res.requestId, contentType };
  }

  /**
   * A binary download streamed, not buffered (a long call's recording): retries and errors as for
   * every call (an error body is read whole), and a 2xx body handed over unread.
   */
  async requestStream(opts: Omit<RequestOptions<never>, 'schema'>): Promise<StreamResponse> {
    const prepared = this.prepare(opts, '*/*');
    const res = await this.send(prepared, opts, true, true);
    const contentType = headerValue(res.headers, 'content-type');
    return { body: res.stream!, status: res.status, headers: res.headers, requestId: res.requestId, contentType };
  }

  /**
   * `--all`: yields one page at a time, following `nextCursor` through `cursor`, so memory stays
   * constant whatever the list's length. `pageParser` parses each page (rows included); without it
   * rows are unknown.
   */
  async *paginate<T = unknown>(
    path: string,
    query: Query = {},
    pageParser?: ResponseParser<Page<T>>,
    init: Pick<RequestOptions, 'headers' | 'signal' | 'agencyLevel'> = {},
  ): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = query.cursor ?? undefined;
    for (;;) {
      const { data: page } = await this.request<Page<T>>({
        ...init,
        method: 'GET',
        path,
        query: { ...query, cursor },
        schema: pageParser,
      });
      if (!page || !Array.isArray(page.data)) {
        throw new Error(`the response to GET ${path} is not a page ({data, hasMore, nextCursor})`);
      }
      yield page;
      if (!page.hasMore || !page.nextCursor) return;
      if (page.nextCursor === cursor) throw new Error(`GET ${path} returned the same cursor twice; stopping`);
      cursor = page.nextCursor;
    }
  }

  private ownTransport: Transport | undefined;

  /** The injected dispatcher, or node:http with agents of our own that close() can shut. */
  private get transport(): Transport {
    return (this.ownTransport ??= this.opts.dispatcher ? dispatcherTransport(this.opts.dispatcher) : nodeTransport({ keepAliveTimeout: 10_000 }));
  }

  /**
   * Closes our idle keep-alive sockets. A one-shot command calls this when it is done, or the open
   * socket would hold the process for the server's keep-alive window.
   */
  async close(): Promise<void> {
    const transport = this.ownTransport;
    this.ownTransport = undefined;
    if (transport) await transport.close();
  }

  /** The request `request()` would send, headers redacted: what `--dry-run` prints. */
  describeRequest(opts: RequestOptions<unknown>): RequestDescription {
    return describe(this.prepare(opts, 'application/json'));
  }

  private prepare(opts: RequestOptions<unknown>, accept: string): PreparedRequest {
    const url = this.buildUrl(opts.path, opts.query);
    const headers = new HeaderBag();
    headers.set('Accept', accept);
    headers.set('User-Agent', this.opts.userAgent ?? `svc/${this.opts.version ?? '0.0.0'}`);
    // Never hand the key to another origin (an absolute media URL elsewhere).
    if (new URL(url).origin === this.origin) {
      if (this.opts.apiKey) headers.set('Authorization', `Bearer ${this.opts.apiKey}`);
      if (this.opts.subaccount && !opts.agencyLevel) headers.set('Service-Subaccount', this.opts.subaccount);
    }
    // cli.md Retries: sends always carry an Idempotency-Key, the same on every try.
    // node:crypto is loaded here, on the first POST, not at import: 5 ms of a `svc keys list` (--cpu-prof).
    const key = opts.idempotencyKey ?? (opts.method === 'POST' ? process.getBuiltinModule('node:crypto').randomUUID() : undefined);
    if (key) headers.set('Idempotency-Key', key);

    let payload: string | Buffer | undefined;
    let shownBody: unknown;
    if (opts.body instanceof Uint8Array) {
      payload = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
      const type = opts.contentType ?? 'application/octet-stream';
      headers.set('Content-Type', type);
      shownBody = { bytes: payload.length, contentType: type };
    } else if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers.set('Content-Type', 'application/json');
      shownBody = opts.body;
    }
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers.set(name, value);
    return { method: opts.method, url, headers: headers.toObject(), payload, shownBody };
  }

  private buildUrl(path: string, query: Query | undefined): string {
    let url = /^https?:\/\//i.test(path) ? path : `${this.baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
    const parts: string[] = [];
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      const encoded = Array.isArray(value)
        ? value.map((v) => encodeURIComponent(String(v))).join(',') // comma-joined lists
        : encodeURIComponent(String(value));
      if (Array.isArray(value) && value.length === 0) continue;
      parts.push(`${encodeURIComponent(name)}=${encoded}`);
    }
    if (parts.length) url += (url.includes('?') ? '&' : '?') + parts.join('&');
    return url;
  }

  private async send(req: PreparedRequest, opts: RequestOptions<unknown>, binary = false, streamOk = false): Promise<Received> {
    if (this.opts.dryRun) throw new DryRunSignal(describe(req));
    const maxAttempts = Math.max(1, opts.maxAttempts ?? this.opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    const timeout = opts.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = combineSignals(this.opts.signal, opts.signal);

    for (let attempt = 1; ; attempt++) {
      this.traceRequest(req, attempt, maxAttempts);
      const started = this.now();
      let received: Received;
      try {
        const res = await this.transport.send(req.url, {
          method: req.method,
          headers: req.headers,
          body: req.payload ?? null,
          signal: signal ?? null,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
        const ok = res.statusCode >= 200 && res.statusCode < 300;
        const stream = streamOk && ok ? res.body : undefined;
        const body = stream ? Buffer.alloc(0) : await readAll(res.body);
        received = {
          status: res.statusCode,
          headers: res.headers,
          body,
          requestId: headerValue(res.headers, 'request-id'),
          ...(stream ? { stream } : {}),
        };
        const serviceTime = Date.parse(headerValue(res.headers, SERVICE_TIME_HEADER.toLowerCase()) ?? '');
        if (Number.isFinite(serviceTime)) this.serviceClockOffsetMs = serviceTime - Date.now();
      } catch (err) {
        if (signal?.aborted) throw err;
        const codes = errorCodes(err);
        const retryable = codes.some((c) => RETRYABLE_NETWORK_CODES.has(c));
        if (!retryable && !codes.some((c) => FATAL_NETWORK_CODES.has(c))) throw err;
        const networkError = new NetworkError({ baseUrl: this.baseUrl, url: req.url, cause: err });
        this.trace(`← ${networkError.code ?? 'network error'} (${this.elapsed(started)} ms)`);
        if (!retryable || attempt >= maxAttempts) throw networkError;
        await this.wait(this.backoff(attempt), attempt, maxAttempts, signal);
        continue;
      }

      this.traceResponse(received, started, binary);
      if (received.status >= 200 && received.status < 300) return received;

      const error = ApiError.fromResponse(received.status, received.body.toString('utf8'), received.requestId);
      if (!RETRY_STATUSES.has(received.status) || attempt >= maxAttempts) throw error;
      const retryAfter = parseRetryAfter(headerValue(received.headers, 'retry-after'));
      await this.wait(retryAfter ?? this.backoff(attempt), attempt, maxAttempts, signal);
    }
  }

  private decode<T>(res: Received, opts: RequestOptions<T>): T {
    if (res.status === 204 || res.body.length === 0) return undefined as T;
    const contentType = headerValue(res.headers, 'content-type') ?? '';
    const text = res.body.toString('utf8');
    let data: unknown = text;
    if (/\bjson\b|\+json/i.test(contentType)) {
      try {
        data = JSON.parse(text);
      } catch {
        throw new Error(`the response to ${opts.method} ${opts.path} was not valid JSON`);
      }
    }
    if (!opts.schema) return data as T;
    const parsed = opts.schema.safeParse(data);
    if (parsed.success) return parsed.data;
    throw new ResponseShapeError({
      method: opts.method,
      path: opts.path,
      issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      requestId: res.requestId,
    });
  }

  /** Full jitter: uniform in [0, min(cap, base·2^(attempt-1))). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return Math.floor(this.random() * ceiling);
  }

  private async wait(ms: number, attempt: number, maxAttempts: number, signal: AbortSignal | undefined) {
    this.trace(`  retrying in ${ms} ms (attempt ${attempt + 1} of ${maxAttempts})`);
    const sleeping = this.sleep(ms);
    if (!signal) return sleeping;
    signal.throwIfAborted();
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([sleeping, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private trace(line: string): void {
    this.opts.trace?.(line);
  }

  private elapsed(started: number): number {
    return Math.round(this.now() - started);
  }

  private traceRequest(req: PreparedRequest, attempt: number, maxAttempts: number): void {
    if (!this.opts.trace) return;
    const retry = attempt > 1 ? ` (attempt ${attempt} of ${maxAttempts})` : '';
    this.trace(`→ ${req.method} ${redactUrl(req.url)}${retry}`);
    for (const [name, value] of Object.entries(req.headers)) this.trace(`  ${name}: ${redactHeader(name, value)}`);
    if (req.shownBody !== undefined) {
      const shown = Buffer.isBuffer(req.payload) ? req.shownBody : redactSecrets(req.shownBody);
      this.trace(`  ${clip(JSON.stringify(shown))}`);
    }
  }

  private traceResponse(res: Received, started: number, binary: boolean): void {
    if (!this.opts.trace) return;
    const extras = [`request-id=${res.requestId ?? '-'}`];
    if (headerValue(res.headers, 'idempotent-replayed') === 'true') extras.push('replayed');
    const retryAfter = headerValue(res.headers, 'retry-after');
    if (retryAfter) extras.push(`retry-after=${retryAfter}`);
    this.trace(`← ${res.status} (${this.elapsed(started)} ms) ${extras.join(' ')}`);
    if (res.body.length === 0) return;
    const contentType = headerValue(res.headers, 'content-type') ?? '';
    if (/\bjson\b|\+json/i.test(contentType)) {
      try {
        this.trace(`  ${clip(JSON.stringify(redactSecrets(JSON.parse(res.body.toString('utf8')))))}`);
        return;
      } catch {
        // not JSON after all: fall through to the summary
      }
    }
    if (!binary && /^text\//i.test(contentType)) {
      this.trace(`  ${clip(res.body.toString('utf8').replace(/\s+/g, ' '))}`);
    } else {
      this.trace(`  <${res.body.length} bytes${contentType ? ` ${contentType}` : ''}>`);
    }
  }
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function describe(req: PreparedRequest): RequestDescription {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = redactHeader(name, value);
  const description: RequestDescription = { method: req.method, url: redactUrl(req.url), headers };
  if (req.shownBody !== undefined) description.body = req.shownBody;
  return description;
}

/** Headers with case-insensitive replacement, keeping the last spelling given. */
class HeaderBag {
  private readonly entries = new Map<string, [string, string]>();
  set(name: string, value: string): void {
    this.entries.set(name.toLowerCase(), [name, value]);
  }
  toObject(): Record<string, string> {
    return Object.fromEntries(this.entries.values());
  }
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `Retry-After` as delta-seconds or an HTTP date → ms, capped at 30 s; undefined when absent/invalid. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - nowMs;
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(ms)));
}

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const errors = (e as { errors?: unknown }).errors; // AggregateError from happy-eyeballs connects
    if (Array.isArray(errors)) for (const inner of errors) codes.push(...errorCodes(inner));
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

function clip(text: string): string {
  return text.length > TRACE_BODY_MAX ? `${text.slice(0, TRACE_BODY_MAX)}… (${text.length} chars)` : text;
}
