// One POST of one event to a handler, signed as the service signs deliveries (spec: Delivery):
// the same body bytes, `X-Service-Signature` from the one signing implementation
// (src/webhooks/verify.ts), `Service-Event-Id`, `Service-Event-Type`, `Service-Delivery-Attempt`.
import { Agent, request, type Dispatcher } from 'undici';
import { signWebhookPayload, SIGNATURE_HEADER } from '../../../webhooks/verify.js';
import type { EventFeedItem } from '../../../api/schemas/events.js';

/** spec: Delivery — a handler acknowledges with any 2xx within 10 seconds. */
export const FORWARD_TIMEOUT_MS = 10_000;
const BODY_KEEP = 2048;

export interface ForwardResult {
  ok: boolean;
  /** The handler's HTTP status; null when it could not be reached. */
  status: number | null;
  ms: number;
  /** Why it failed without a status (ECONNREFUSED, timeout). */
  error: string | null;
  /** The start of the handler's response body (for -v). */
  body: string;
  aborted: boolean;
}

/**
 * The webhook body of a feed item: the item minus `eventId` (contract §10: an item is the webhook
 * body plus `eventId`), with its keys in the order the service writes a body (`id`, `type`,
 * `createdAt`, then the event's fields: EventStore.emit), so these are the bytes the service POSTs.
 */
export function webhookBody(item: EventFeedItem): string {
  const { eventId: _eventId, id, type, createdAt, ...fields } = item;
  return JSON.stringify({ id, type, createdAt, ...fields });
}

export class Forwarder {
  private agent: Dispatcher | undefined;

  constructor(
    private readonly opts: { secret: string; headers: Record<string, string>; userAgent: string; nowMs: () => number; timeoutMs?: number },
  ) {}

  async post(url: string, rawBody: string, item: EventFeedItem, attempt: number, signal: AbortSignal): Promise<ForwardResult> {
    this.agent ??= new Agent({ keepAliveTimeout: 4000 });
    // Ours win over a --headers entry of the same name, whatever its case.
    const ours: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': this.opts.userAgent,
      [SIGNATURE_HEADER]: signWebhookPayload(rawBody, this.opts.secret, Math.floor(this.opts.nowMs() / 1000)),
      'Service-Event-Id': item.id,
      'Service-Event-Type': item.type,
      'Service-Delivery-Attempt': String(attempt),
    };
    const taken = new Set(Object.keys(ours).map((k) => k.toLowerCase()));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.opts.headers)) if (!taken.has(name.toLowerCase())) headers[name] = value;
    Object.assign(headers, ours);
    const timeout = this.opts.timeoutMs ?? FORWARD_TIMEOUT_MS;
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const res = await request(url, { method: 'POST', headers, body: rawBody, dispatcher: this.agent, signal, headersTimeout: timeout, bodyTimeout: timeout });
      let body = '';
      for await (const chunk of res.body) {
        body += (chunk as Buffer).toString('utf8');
        if (body.length >= BODY_KEEP) break;
      }
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { ok, status: res.statusCode, ms: ms(), error: null, body: body.slice(0, BODY_KEEP), aborted: false };
    } catch (err) {
      if (signal.aborted) return { ok: false, status: null, ms: ms(), error: 'interrupted', body: '', aborted: true };
      return { ok: false, status: null, ms: ms(), error: describeError(err), body: '', aborted: false };
    }
  }

  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = undefined;
    if (agent) await agent.destroy();
  }
}

function describeError(err: unknown): string {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? 'timeout' : code;
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length) e = inner[0];
    else e = (e as { cause?: unknown }).cause;
  }
  return (err as Error)?.message ?? String(err);
}
