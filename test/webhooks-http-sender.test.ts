// The webhook HTTP sender on its own, against a loopback receiver: when the acknowledgement timeout
// starts, and connections per host:port.
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookHttpSender, type PostRequest } from '../src/server/webhooks/http-sender.js';
import { startReceiver, type Receiver } from './webhooks-receiver.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function setup(maxSocketsPerOrigin: number): Promise<{ rx: Receiver; sender: WebhookHttpSender; post: (path: string, extra?: Partial<PostRequest>) => ReturnType<WebhookHttpSender['post']> }> {
  const rx = await startReceiver((r) => (r.path.startsWith('/slow') ? { hang: true } : { status: 200 }));
  cleanup.push(() => rx.close());
  const sender = new WebhookHttpSender({ maxSocketsPerOrigin });
  cleanup.push(() => sender.close());
  const post = (path: string, extra: Partial<PostRequest> = {}) =>
    sender.post({ url: new URL(`http://127.0.0.1:${rx.port}${path}`), address: '127.0.0.1', family: 4, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 300, ...extra });
  return { rx, sender, post };
}

describe('WebhookHttpSender', () => {
  it('starts the acknowledgement timeout when the request gets a socket, not while it waits for one', async () => {
    const { rx, post } = await setup(1);
    const slow = post('/slow');
    const fast = post('/fast'); // waits for the only socket to this host:port
    expect(await slow).toMatchObject({ kind: 'error', error: 'timeout: no response within 300 ms' });
    expect(await fast).toMatchObject({ kind: 'response', status: 200 });
    expect(rx.received.map((r) => r.path)).toEqual(['/slow', '/fast']);
  });

  it('opens up to maxSocketsPerOrigin connections to one host:port', async () => {
    const { rx, post } = await setup(5);
    const slow = [1, 2, 3, 4].map((i) => post(`/slow${i}`));
    const started = Date.now();
    const fast = await post('/fast');
    expect(fast).toMatchObject({ kind: 'response', status: 200 });
    expect(Date.now() - started).toBeLessThan(250);
    for (const s of await Promise.all(slow)) expect(s.kind).toBe('error');
    expect(rx.maxOpen).toBe(5);
  });

  it('a request outside the pool (pooled: false) is sent even when every pooled socket is busy', async () => {
    const { post } = await setup(1);
    const slow = post('/slow', { timeoutMs: 1000 });
    const started = Date.now();
    expect(await post('/probe', { pooled: false })).toMatchObject({ kind: 'response', status: 200 });
    expect(Date.now() - started).toBeLessThan(500);
    await slow;
  });

  it('abortAll cuts off every request in flight (a stopping worker), and only those', async () => {
    const { sender, post } = await setup(4);
    const hanging = [1, 2, 3].map((i) => post(`/slow${i}`, { timeoutMs: 10_000 }));
    await new Promise((r) => setTimeout(r, 100)); // sent, held by the receiver
    const started = Date.now();
    sender.abortAll();
    const results = await Promise.all(hanging);
    expect(results.length).toBe(3);
    for (const r of results) expect(r.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1000);
    // Nothing left to abort: a later request is untouched.
    expect(await post('/fast')).toMatchObject({ kind: 'response', status: 200 });
  });
});
