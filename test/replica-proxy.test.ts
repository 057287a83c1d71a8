import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReplicaProxy, type ReplicaProxy } from './helpers/replicas.js';

// The SVC_TEST_REPLICAS proxy speaks for its own connections: a replica's keep-alive hint
// (15 s) passed on made clients reuse connections the proxy had closed after its 5 s (ECONNRESET).

let upstream: Server;
let proxy: ReplicaProxy;
beforeAll(async () => {
  upstream = createServer({ keepAliveTimeout: 15_000 }, (req, res) => {
    res.setHeader('content-type', 'text/plain');
    if (req.url === '/close') res.setHeader('connection', 'close');
    res.end('ok');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  proxy = await startReplicaProxy([`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`]);
});
afterAll(async () => {
  await proxy?.close();
  await new Promise((r) => upstream?.close(r));
});

it("tells the client its own keep-alive, not the replica's; a replica's Connection: close is passed on", async () => {
  const kept = await request(`${proxy.baseUrl}/`);
  expect(await kept.body.text()).toBe('ok');
  expect(kept.headers['keep-alive']).toBe('timeout=5');
  const closed = await request(`${proxy.baseUrl}/close`);
  await closed.body.text();
  expect(closed.headers.connection).toBe('close');
});
