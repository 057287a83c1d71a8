import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback proxy that hands each request to the next of several replicas in turn
 * (SVC_TEST_REPLICAS): a test's client, talking to one address, sees every other request answered by
 * another process on the same database, as behind a round-robin load balancer. The Host header is
 * passed as sent, so URLs a replica builds from it point back at the proxy. Bodies and answers are
 * streamed both ways (held reads and event streams pass through as they come).
 */
export interface ReplicaProxy {
  readonly baseUrl: string;
  /** How many requests each replica answered, by index. */
  readonly served: number[];
  close(): Promise<void>;
}

/**
 * A replica's answer headers less those about its own connection to the proxy (hop-by-hop): passed
 * on, its `Keep-Alive: timeout=15` told the client to keep an idle connection the proxy closes after
 * its own 5 s, and a request sent on it as it closed failed with ECONNRESET. The proxy's server
 * writes its own; a `Connection: close` is kept, so the client's connection ends as the replica said.
 */
function ownConnectionHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return connection?.toLowerCase() === 'close' ? { ...rest, connection } : rest;
}

/** `port`: where the proxy listens (0: any free port; a service restarted at its address passes the old one). */
export async function startReplicaProxy(targets: string[], port = 0): Promise<ReplicaProxy> {
  const ports = targets.map((t) => Number(new URL(t).port));
  const agent = new Agent({ keepAlive: true });
  const served = ports.map(() => 0);
  let turn = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const i = turn++ % ports.length;
    served[i]!++;
    const upstream = httpRequest({ host: '127.0.0.1', port: ports[i], method: req.method, path: req.url, headers: req.headers as IncomingHttpHeaders, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, ownConnectionHeaders(answer.headers));
      answer.pipe(res);
      // The client gone: stop reading the replica's answer (a held read ends with it).
      res.on('close', () => answer.destroy());
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' });
      res.end(`replica proxy: ${err.message}`);
    });
    // The request's body is read whole, then sent (the test suites' bodies are a few MB at most; a
    // held read or an event stream is an answer, never a request body). Piped as it came, a body the
    // replica refused before reading it (over its limit: answered at once, the rest read and dropped)
    // stopped flowing once the answer had been passed on, and the replica waited for the rest until
    // its request timeout: the next request on that connection failed.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => upstream.end(Buffer.concat(chunks)));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    served,
    /**
     * Call once the replicas are closed: the answers they gave as they closed (a held read answered
     * at once) are passed on first; connections still open after 5 s are cut (a bound for a hang).
     */
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, 5000);
      await closed;
      clearTimeout(cut);
      agent.destroy();
    },
  };
}
