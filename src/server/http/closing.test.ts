import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { closeConnectionsAfterAnswers } from './closing.js';

// A keep-alive timeout far beyond the bound the test asserts: a close that waited for it would
// be seen, and nothing else in the test takes more than milliseconds.
const KEEP_ALIVE_MS = 120_000;
const CLOSE_BOUND_MS = 10_000;

let app: FastifyInstance | undefined;
let agent: Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
  // Not awaited on failure: a close stuck on a keep-alive connection would outlast the test.
  void app?.close();
  app = undefined;
});

describe('closeConnectionsAfterAnswers', () => {
  it('an answer still under way when the close begins closes its keep-alive connection, and the close does not wait for the keep-alive timeout', async () => {
    app = Fastify({ keepAliveTimeout: KEEP_ALIVE_MS });
    closeConnectionsAfterAnswers(app);
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    app.get('/slow', async () => {
      entered();
      await gate;
      return { ok: true };
    });
    app.get('/quick', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    agent = new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS });

    // Before any close: keep-alive as usual.
    const quick = await request(`${base}/quick`, { dispatcher: agent });
    await quick.body.text();
    expect(quick.headers.connection).toBe('keep-alive');

    const pending = request(`${base}/slow`, { dispatcher: agent });
    await inHandler;
    const started = Date.now();
    const closed = app.close();
    // Answer once the close is under way (preClose hooks ran, the server stopped listening and closed
    // the connections idle then): a condition, not a pause.
    while (app.server.listening) await new Promise((r) => setTimeout(r, 5));
    release();
    const res = await pending;
    expect(await res.body.json()).toEqual({ ok: true });
    expect(res.headers.connection).toBe('close');
    const outcome = await Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), CLOSE_BOUND_MS).unref())]);
    expect(outcome).toBe('closed');
    expect(Date.now() - started).toBeLessThan(CLOSE_BOUND_MS);
    app = undefined;
  });
});
