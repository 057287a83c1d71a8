import type { EndpointRoute, WebhookEndpointsRepo } from '../storage/webhooks-repo.js';
import type { CallDecisionClient, DecisionReply, DecisionRequest } from '../domain/voice/call-engine.js';
import { checkResolvedAddresses, checkWebhookUrl, classifyAddress, describeAddressClass, urlHost, type AddressClass, type ResolvedAddress } from '../domain/webhooks/url-safety.js';
import { WebhookHttpSender } from './http-sender.js';
import { systemResolver, type Resolver } from './resolver.js';
import { SIGNATURE_HEADER, USER_AGENT, signWebhookPayload } from './signing.js';

// spec: Routing decision request; contract §6 (the decision request's signing secret), §10 (URL
// safety). The one network act of the call engine: sign and POST `{numberId, callId, from, to,
// startedAt}` once, wait up to `timeoutMs`, and report what came back for the engine to read (it
// fails open on anything but a 200 with a valid action).

export interface DecisionClientOptions {
  /** Name resolution (tests: a stub table, so nothing reaches real DNS). */
  resolver?: Resolver;
  /** A last check on the address about to be connected to (tests: loopback only). */
  destinationGuard?: (address: string) => boolean;
  /** Real wall clock for the signature's `t` (contract §10: never the service's advanced clock). */
  wallNow?: () => number;
  userAgent?: string;
}

/** Scheme, host and port, as URL.origin writes them (default ports elided, host lower-case). */
const originOf = (raw: string): string | null => {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
};

export class HttpDecisionClient implements CallDecisionClient {
  private readonly sender = new WebhookHttpSender();
  private readonly controllers = new Set<AbortController>();
  private readonly resolver: Resolver;
  private readonly guard: ((address: string) => boolean) | undefined;
  private readonly wallNow: () => number;
  private readonly userAgent: string;
  private stopped = false;

  constructor(
    private readonly endpoints: Pick<WebhookEndpointsRepo, 'enabledForAccount'>,
    opts: DecisionClientOptions = {},
  ) {
    this.resolver = opts.resolver ?? systemResolver;
    this.guard = opts.destinationGuard;
    this.wallNow = opts.wallNow ?? Date.now;
    this.userAgent = opts.userAgent ?? USER_AGENT;
  }

  get stopping(): boolean {
    return this.stopped;
  }

  /** The service is stopping: requests in flight are dropped and their replies are not read (the restart fails open). */
  stop(): void {
    this.stopped = true;
    for (const c of this.controllers) c.abort();
    this.sender.close();
  }

  /**
   * contract §6: the account's ENABLED endpoint whose URL has the decision URL's origin (scheme,
   * host, port); the newest when several do.
   */
  async signingEndpoint(accountId: string, decisionUrl: string): Promise<EndpointRoute | undefined> {
    const origin = originOf(decisionUrl);
    if (origin === null) return undefined;
    return (await this.endpoints
      .enabledForAccount(accountId))
      .filter((e) => originOf(e.url) === origin)
      .sort((a, b) => b.createdAt - a.createdAt)[0];
  }

  async decide(accountId: string, request: DecisionRequest, target: { url: string; timeoutMs: number }): Promise<DecisionReply> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const notSent = (detail: string): DecisionReply => ({ kind: 'failure', reason: 'not_sent', detail, latencyMs: latency() });

    // contract §6: the URL obeys the endpoints' safety rules when the call is made (§10), not only
    // when the route was saved: first what it is on its face…
    const check = checkWebhookUrl(target.url);
    if (!check.ok || !check.url) return notSent(`the decision URL ${check.reason ?? 'is not valid'}`);
    const url = check.url;
    const endpoint = await this.signingEndpoint(accountId, target.url);
    if (!endpoint) return notSent(`no enabled webhook endpoint of this account has the origin ${url.origin}, so there is no secret to sign with`);

    // …then what its name resolves to, connecting to the checked address only.
    const host = urlHost(url);
    let address: ResolvedAddress;
    const literal = classifyAddress(host);
    if (literal !== undefined) {
      if (literal !== 'public' && literal !== 'loopback') return notSent(`refused: ${host} is ${describeAddressClass(literal as Exclude<AddressClass, 'public'>)}`);
      address = { address: host, family: host.includes(':') ? 6 : 4 };
    } else {
      let answers: ResolvedAddress[];
      try {
        answers = await this.resolver.lookup(host);
      } catch (err) {
        return { kind: 'failure', reason: 'network', detail: `could not resolve ${host} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, latencyMs: latency() };
      }
      const refusal = checkResolvedAddresses(host, answers);
      if (refusal) return notSent(`refused: ${refusal}`);
      address = answers[0]!;
    }
    if (this.guard && !this.guard(address.address)) return notSent(`blocked by the destination guard (${address.address})`);
    if (this.stopped) return { kind: 'failure', reason: 'network', detail: 'the service is stopping', latencyMs: latency() };

    // spec: the same X-Service-Signature scheme and the endpoint secret; body fields numberId, callId,
    // from, to, startedAt (no id or createdAt).
    const body = JSON.stringify({ numberId: request.numberId, callId: request.callId, from: request.from, to: request.to, startedAt: request.startedAt });
    const headers = {
      'Content-Type': 'application/json',
      [SIGNATURE_HEADER]: signWebhookPayload(body, endpoint.secret, Math.floor(this.wallNow() / 1000)),
      'User-Agent': this.userAgent,
    };
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      // A connection of its own: a decision must not wait behind deliveries for a pooled socket.
      const res = await this.sender.post({ url, address: address.address, family: address.family, headers, body, timeoutMs: target.timeoutMs, signal: controller.signal, pooled: false });
      if (res.kind === 'aborted') return { kind: 'failure', reason: 'network', detail: 'the service stopped while waiting for the answer', latencyMs: res.durationMs };
      if (res.kind === 'error') {
        const timedOut = res.error.startsWith('timeout');
        return { kind: 'failure', reason: timedOut ? 'timeout' : 'network', detail: timedOut ? `no answer within ${target.timeoutMs} ms` : res.error, latencyMs: res.durationMs };
      }
      // The engine reads the body: JSON when it parses, else the raw text (a malformed body; fail-open).
      let parsed: unknown = res.body;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        // kept as text
      }
      return { kind: 'response', status: res.status, body: parsed, latencyMs: res.durationMs };
    } finally {
      this.controllers.delete(controller);
    }
  }
}
