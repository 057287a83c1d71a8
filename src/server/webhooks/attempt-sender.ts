import type { EndpointRoute } from '../storage/webhooks-repo.js';
import type { AttemptResult } from '../domain/webhooks/deliveries.js';
import { WebhookHttpSender } from './http-sender.js';
import { UndiciWebhookSender } from './undici-sender.js';
import type { WebhookSender } from './http-post.js';
import { deliveryHeaders } from './signing.js';
import { isRetryableStatus, parseRetryAfterMs } from '../domain/webhooks/retry-schedule.js';
import { checkResolvedAddresses, classifyAddress, describeAddressClass, isOwnSinkUrl, urlHost, type AddressClass, type ResolvedAddress } from '../domain/webhooks/url-safety.js';
import type { Resolver } from './resolver.js';
import { postWithChaos } from './chaos-post.js';
import type { Chaos } from '../world/chaos.js';

/** An attempt's outcome, or `aborted`: cut off by a stop (not recorded: it stays due). */
export type Outcome = AttemptResult | { aborted: true };

/** Parsed endpoint URLs kept (an endpoint's URL is parsed once, not per attempt). */
const URL_CACHE_LIMIT = 1000;
interface ParsedTarget {
  url: URL;
  host: string;
  literal: AddressClass | undefined;
}

export interface AttemptSenderOptions {
  ackTimeoutMs: number;
  /** Connections per origin: as many as the worker's slots (the pool bounds traffic). */
  concurrency: number;
  resolver: Resolver;
  userAgent: string;
  wallNow: () => number;
  guard: ((address: string) => boolean) | undefined;
  chaos: Chaos | undefined;
  /** 'undici' in a `--role worker` process (cheaper per attempt), 'node' (node:http) otherwise (undici-sender.ts). */
  httpClient: 'node' | 'undici';
}

/**
 * The sender: resolves an endpoint's host, checks the address against the safety rules, signs and
 * POSTs one attempt over the HTTP client chosen at construction (one client per worker run:
 * `renew` at each start, `abortAll` and `close` at its stop). Knows nothing of claims nor records.
 */
export class AttemptSender {
  private client: WebhookSender;
  private readonly parsedUrls = new Map<string, ParsedTarget | undefined>();
  /** The origins this process's HTTP server listens on: where its own sinks are. */
  private readonly ownOrigins = new Set<string>();

  constructor(
    private readonly o: AttemptSenderOptions,
    /** Whether the worker still runs: checked before the POST, so a stop sends nothing more. */
    private readonly live: () => boolean,
  ) {
    this.client = this.newClient();
  }

  private newClient(): WebhookSender {
    const opts = { maxSocketsPerOrigin: this.o.concurrency };
    return this.o.httpClient === 'undici' ? new UndiciWebhookSender(opts) : new WebhookHttpSender(opts);
  }

  /** A fresh client for a new run (the last one was closed at stop). */
  renew(): void {
    this.client = this.newClient();
  }

  /** Cuts off every attempt in flight on this run's client. */
  abortAll(): void {
    this.client.abortAll();
  }

  close(): void {
    this.client.close();
  }

  /** This process serves HTTP at `origin`: a sink's URL there is the service itself (isOwnSinkUrl). */
  servesAt(origin: string): void {
    this.ownOrigins.add(new URL(origin).origin);
  }

  /**
   * An endpoint URL parsed, its host and whether the host is an address literal (and of what class),
   * once per URL (parsing and classifying it for every attempt showed in the worker's
   * profile). Undefined: not a valid URL.
   */
  private parseTarget(raw: string): ParsedTarget | undefined {
    if (this.parsedUrls.has(raw)) return this.parsedUrls.get(raw);
    let parsed: ParsedTarget | undefined;
    try {
      const url = new URL(raw);
      const host = urlHost(url);
      parsed = { url, host, literal: classifyAddress(host) };
    } catch {
      parsed = undefined;
    }
    if (this.parsedUrls.size >= URL_CACHE_LIMIT) this.parsedUrls.clear();
    this.parsedUrls.set(raw, parsed);
    return parsed;
  }

  /** Resolves, checks, signs and POSTs one attempt. Never throws. `pooled` false: on a connection of its own (a probe). */
  async deliver(endpoint: EndpointRoute, rawBody: string, eventId: string, eventType: string, attempt: number, pooled = true): Promise<Outcome> {
    const failed = (error: string, retryable: boolean): AttemptResult => ({ succeeded: false, responseStatus: null, responseBody: null, durationMs: null, error, retryable });
    const parsed = this.parseTarget(endpoint.url);
    if (!parsed) return failed('refused: the endpoint URL is not valid', false);
    const { url, host, literal } = parsed;
    let target: ResolvedAddress;
    if (literal !== undefined) {
      if (literal !== 'public' && literal !== 'loopback' && !isOwnSinkUrl(url, this.ownOrigins)) {
        return failed(`refused: ${host} is ${describeAddressClass(literal as Exclude<AddressClass, 'public'>)}`, false);
      }
      target = { address: host, family: host.includes(':') ? 6 : 4 };
    } else {
      let answers: ResolvedAddress[];
      try {
        answers = await this.o.resolver.lookup(host);
      } catch (err) {
        // A resolution failure is a connection error: retried.
        return failed(`connection error: could not resolve ${host} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, true);
      }
      const refusal = checkResolvedAddresses(host, answers);
      if (refusal) return failed(`refused: ${refusal}`, false);
      target = answers[0]!;
    }
    if (this.o.guard && !this.o.guard(target.address)) return failed(`blocked by the destination guard (${target.address})`, false);
    if (!this.live()) return { aborted: true };

    const headers = deliveryHeaders({ rawBody, secret: endpoint.secret, eventId, eventType, attempt, wallNowMs: this.o.wallNow(), userAgent: this.o.userAgent });
    const res = await postWithChaos(this.o.chaos, this.client, { url, address: target.address, family: target.family, headers, body: rawBody, timeoutMs: this.o.ackTimeoutMs, pooled }, { accountId: endpoint.accountId, eventId, eventType, number: attempt });
    if (res.kind === 'aborted') return { aborted: true };
    // What was sent, kept with the attempt (the console's delivery inspector): the URL and headers.
    const request = { url: url.href, headers };
    if (res.kind === 'error') return { ...failed(res.error, true), durationMs: res.durationMs, request };
    const base = { responseStatus: res.status, responseBody: res.body, durationMs: res.durationMs, request };
    if (res.status >= 200 && res.status < 300) return { ...base, succeeded: true, error: null, retryable: false };
    if (res.status >= 300 && res.status < 400) return { ...base, succeeded: false, error: `HTTP ${res.status}: redirects are not followed`, retryable: false };
    const retryable = isRetryableStatus(res.status);
    return {
      ...base,
      succeeded: false,
      error: `HTTP ${res.status}`,
      retryable,
      retryAfterMs: res.status === 429 || res.status === 503 ? parseRetryAfterMs(res.headers['retry-after'], this.o.wallNow()) : undefined,
    };
  }
}
