import type { IncomingHttpHeaders } from 'node:http';
import type { Client, Dispatcher } from 'undici';
import { DRAIN_LIMIT, RESPONSE_BODY_LIMIT, pinnedLookup, type PostRequest, type PostResult, type SenderOptions, type WebhookSender } from './http-post.js';

// An idle kept-alive connection is closed after this (unless the receiver's Keep-Alive hint is shorter).
const IDLE_CONNECTION_MS = 30_000;

type Undici = typeof import('undici');
let undiciModule: Promise<Undici> | undefined;
/**
 * undici is loaded when a sender is made (a `--role worker` process's, at its start), not with the
 * service's modules: importing it costs 250-400 ms under load, which no other process pays, and a
 * worker pays before its first delivery (loaded by the first POST, it held up the deliveries of
 * the first half second: bench/roles on PostgreSQL, lag p99 0.4 -> 1.3-3.9 s).
 */
const loadUndici = (): Promise<Undici> => (undiciModule ??= import('undici'));

/** A host:port's connection slots: how many requests hold one, and those waiting for one (FIFO). */
interface OriginSlots {
  busy: number;
  waiting: Attempt[];
}

/**
 * The kept-alive connections to one origin through one checked address: a Client each (one
 * connection, one request at a time), the idle ones last-used on top. Not undici's Pool: it hands a
 * request that comes right after an answer to a NEW connection (the answered one counts as busy until
 * its next turn of the event loop), so attempts one after another opened a connection each.
 */
interface PinnedClients {
  idle: Client[];
  /** Those with a connection open (a client whose connection closed is dropped once idle). */
  connected: Set<Client>;
  count: number;
}

/**
 * What Node's own client reported for the same failure, so the delivery log's words do not depend on
 * the client: undici reports a connection closed before the answer as UND_ERR_SOCKET ("other side
 * closed"), Node as ECONNRESET ("socket hang up"). Other errors carry the socket's own code.
 */
function errorCode(err: Error & { code?: string }): string {
  if (err.code === 'UND_ERR_SOCKET') return 'ECONNRESET';
  return err.code ?? err.message;
}

/** Why a request was cut off by this side (never shown: the result says it). */
const CUT_OFF = new Error('cut off by the webhook sender');

/**
 * One POST in flight: undici's dispatch handler (the response read with no stream in between) and its
 * settling. It settles once, whichever comes first: the response, an error, the acknowledgement
 * timeout, an abort. Its connection slot is held until undici is done with the request (a request cut
 * off while connecting holds it until the connect ends), as Node's agent held a socket.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  /** Cut off before undici handed us its controller: abort as soon as it does. */
  private cutOff = false;
  private status: number | undefined;
  private headers: IncomingHttpHeaders = {};
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private total = 0;
  /** Called once undici is done with the request (it frees the connection slot). */
  release: (() => void) | undefined;
  /** Still in its origin's queue, not dispatched. */
  queued = false;

  constructor(
    readonly request: PostRequest,
    private readonly resolve: (result: PostResult) => void,
    private readonly forget: (a: Attempt) => void,
  ) {}

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private finish(result: PostResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.request.signal?.removeEventListener('abort', this.abort);
    this.forget(this);
    this.resolve(result);
  }

  private finishResponse(): void {
    this.finish({ kind: 'response', status: this.status!, headers: this.headers, body: Buffer.concat(this.kept).toString('utf8'), durationMs: this.elapsed() });
  }

  get isSettled(): boolean {
    return this.settled;
  }

  /** The acknowledgement clock starts: the request has a connection slot and is being sent. */
  startClock(): void {
    if (this.settled) return;
    this.timer = setTimeout(() => {
      // A status line in time and only the body slow: keep what arrived.
      if (this.status !== undefined) this.finishResponse();
      else this.finish({ kind: 'error', error: `timeout: no response within ${this.request.timeoutMs} ms`, durationMs: this.elapsed() });
      this.cut();
    }, this.request.timeoutMs);
  }

  /** Stops the request in undici (its connection is dropped, never reused half-read). */
  private cut(): void {
    if (this.controller) {
      if (!this.controller.aborted) this.controller.abort(CUT_OFF);
    } else this.cutOff = true;
  }

  /** Cut off from outside (its signal, abortAll): resolves `aborted`. An arrow: it is a listener too. */
  readonly abort = (): void => {
    this.finish({ kind: 'aborted', durationMs: this.elapsed() });
    this.cut();
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.cutOff || this.settled) controller.abort(CUT_OFF);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // 1xx: informational, the answer is still to come
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.total += chunk.length;
    if (this.keptBytes < RESPONSE_BODY_LIMIT) {
      const slice = chunk.subarray(0, RESPONSE_BODY_LIMIT - this.keptBytes);
      this.kept.push(slice);
      this.keptBytes += slice.length;
    }
    if (this.total > DRAIN_LIMIT) {
      this.finishResponse();
      controller.abort(CUT_OFF);
    }
  }

  onResponseEnd(): void {
    this.finishResponse();
    this.release?.();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }

  /** The request failed (or was cut off): what arrived in time stands, else a connection error. */
  fail(err: Error): void {
    if (this.status !== undefined) this.finishResponse();
    else this.finish({ kind: 'error', error: `connection error: ${errorCode(err)}`, durationMs: this.elapsed() });
    this.release?.();
  }
}

/**
 * One POST on undici's dispatcher API, never following redirects (a 3xx is an answer; spec: Delivery
 * abandons on it), kept-alive connections per origin and checked address. The sender of a `--role
 * worker` process (Node's http client was a third of that process's CPU at full rate;
 * undici reads the answer with no stream or IncomingMessage per request: 0.25 -> 0.20 ms of the
 * worker's CPU per delivery, bench/roles).
 *
 * Not in a process that serves the API too: undici writes a request on a reused connection only
 * in the check phase of the event loop (idle-socket validation: bytes or a FIN the receiver sent
 * meanwhile are read first), and there a turn holds the API's group commit: deliveries then took a
 * turn more each, and under 50 connections of sends one process delivered 0.48-0.57 during the load
 * where node:http delivered 0.99 (bench/roles `all`; node:http with its writes deferred the same way
 * delivered 0.51).
 */
export class UndiciWebhookSender implements WebhookSender {
  private readonly maxSockets: number;
  private readonly origins = new Map<string, OriginSlots>();
  private readonly pinned = new Map<string, PinnedClients>();
  /** Probes' one-request clients, closed once answered (or by close()). */
  private readonly probes = new Set<Client>();
  /**
   * The requests not yet settled, for abortAll(): a Set entry per request, where a listener per
   * request on one shared AbortSignal cost 3 % of a burst (EventTarget checks every listener already
   * there on each add: 256 in flight).
   */
  private readonly inFlight = new Set<Attempt>();
  private closed = false;

  constructor(opts: SenderOptions = {}) {
    this.maxSockets = Math.max(1, opts.maxSocketsPerOrigin ?? 8);
    void loadUndici();
  }

  post(r: PostRequest): Promise<PostResult> {
    return new Promise<PostResult>((resolve) => {
      const attempt = new Attempt(r, resolve, (a) => this.forgetAttempt(a));
      if (r.signal?.aborted) return attempt.abort();
      r.signal?.addEventListener('abort', attempt.abort, { once: true });
      this.inFlight.add(attempt);
      void loadUndici().then(
        (undici) => {
          if (attempt.isSettled) return;
          if (r.pooled === false) this.sendAlone(undici, attempt);
          else this.takeSlot(undici, attempt);
        },
        (err: Error) => attempt.fail(err),
      );
    });
  }

  /** Cuts off every request in flight: each resolves `aborted` (a stopping worker's attempts). */
  abortAll(): void {
    for (const attempt of [...this.inFlight]) attempt.abort();
  }

  close(): void {
    this.closed = true;
    this.abortAll();
    for (const set of this.pinned.values()) for (const client of set.idle) void client.destroy().catch(() => undefined);
    this.pinned.clear();
    for (const client of this.probes) void client.destroy().catch(() => undefined);
    this.probes.clear();
  }

  private forgetAttempt(attempt: Attempt): void {
    this.inFlight.delete(attempt);
    // A request aborted while waiting for a slot leaves the queue now (nothing was sent).
    if (attempt.queued) {
      attempt.queued = false;
      const slots = this.origins.get(attempt.request.url.origin);
      if (slots) {
        const i = slots.waiting.indexOf(attempt);
        if (i >= 0) slots.waiting.splice(i, 1);
        this.dropIdleOrigin(attempt.request.url.origin, slots);
      }
    }
  }

  /**
   * A connection slot of the request's host:port (at most maxSocketsPerOrigin requests at once, as
   * Node's agent allowed sockets); the acknowledgement clock starts when it has one.
   */
  private takeSlot(undici: Undici, attempt: Attempt): void {
    const origin = attempt.request.url.origin;
    let slots = this.origins.get(origin);
    if (!slots) this.origins.set(origin, (slots = { busy: 0, waiting: [] }));
    if (slots.busy < this.maxSockets) {
      slots.busy++;
      this.dispatchPooled(undici, attempt, slots);
    } else {
      attempt.queued = true;
      slots.waiting.push(attempt);
    }
  }

  private dispatchPooled(undici: Undici, attempt: Attempt, slots: OriginSlots): void {
    const r = attempt.request;
    const key = `${r.url.origin} ${r.address}`;
    let set = this.pinned.get(key);
    if (!set) this.pinned.set(key, (set = { idle: [], connected: new Set(), count: 0 }));
    const client = this.idleClient(set) ?? this.newClient(undici, r, key, set);
    let released = false;
    attempt.release = () => {
      if (released) return;
      released = true;
      if (!this.closed && set.connected.has(client)) set.idle.push(client);
      else this.dropClient(key, set, client);
      this.freeSlot(undici, r.url.origin, slots);
    };
    attempt.startClock();
    this.dispatch(client, attempt);
  }

  /** The idle client used last (its connection the likeliest to be open still). */
  private idleClient(set: PinnedClients): Client | undefined {
    for (;;) {
      const client = set.idle.pop();
      if (!client || (!client.closed && !client.destroyed)) return client;
      set.count--;
    }
  }

  /**
   * A client of its own connection to the URL's origin through the checked address: the Host header
   * and the TLS server name come from the URL (the client's origin), the connection goes to the
   * address (its pinned lookup). Clients are at most as many as the origin's slots, so at most that
   * many connections idle; an idle one closes after IDLE_CONNECTION_MS (or the receiver's Keep-Alive
   * hint), and its client is dropped then, the origin's set with its last client.
   */
  private newClient(undici: Undici, r: PostRequest, key: string, set: PinnedClients): Client {
    const client = new undici.Client(r.url.origin, {
      pipelining: 1,
      keepAliveTimeout: IDLE_CONNECTION_MS,
      // The acknowledgement timeout bounds a connect too (Node's request was destroyed with it).
      connect: { lookup: pinnedLookup(r.address, r.family), timeout: r.timeoutMs },
    });
    set.count++;
    client.on('connect', () => set.connected.add(client));
    client.on('disconnect', () => {
      set.connected.delete(client);
      const i = set.idle.indexOf(client);
      if (i < 0) return; // in use: dropped when released
      set.idle.splice(i, 1);
      this.dropClient(key, set, client);
    });
    return client;
  }

  private dropClient(key: string, set: PinnedClients, client: Client): void {
    set.count--;
    set.connected.delete(client);
    void client.destroy().catch(() => undefined);
    if (set.count === 0 && this.pinned.get(key) === set) this.pinned.delete(key);
  }

  /** The slot passes to the next request waiting for it, if any. */
  private freeSlot(undici: Undici, origin: string, slots: OriginSlots): void {
    const next = slots.waiting.shift();
    if (next) {
      next.queued = false;
      this.dispatchPooled(undici, next, slots);
      return;
    }
    slots.busy--;
    this.dropIdleOrigin(origin, slots);
  }

  private dropIdleOrigin(origin: string, slots: OriginSlots): void {
    if (slots.busy === 0 && slots.waiting.length === 0 && this.origins.get(origin) === slots) this.origins.delete(origin);
  }

  /** A probe: a client of its own (one connection), closed once it has answered; its clock starts at once. */
  private sendAlone(undici: Undici, attempt: Attempt): void {
    const r = attempt.request;
    const client = new undici.Client(r.url.origin, { pipelining: 1, connect: { lookup: pinnedLookup(r.address, r.family), timeout: r.timeoutMs } });
    this.probes.add(client);
    attempt.release = () => {
      this.probes.delete(client);
      void client.destroy().catch(() => undefined);
    };
    attempt.startClock();
    this.dispatch(client, attempt);
  }

  private dispatch(dispatcher: Dispatcher, attempt: Attempt): void {
    const r = attempt.request;
    if (this.closed) return attempt.abort();
    try {
      // undici sets Content-Length from the string body, and follows no redirect (no interceptor).
      dispatcher.dispatch({ method: 'POST', path: `${r.url.pathname}${r.url.search}`, headers: r.headers, body: r.body }, attempt);
    } catch (err) {
      attempt.fail(err as Error);
    }
  }
}
