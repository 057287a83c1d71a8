import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, validationError } from '../errors.js';
import { accountCounter, HOLD_LIMITS } from '../http/client-holds.js';
import { ownOrigin } from '../http/own-origin.js';
import { SUBACCOUNT_HEADER } from '../http/request-headers.js';
import { readToolGroups } from '../../api/values/mcp.js';

// /mcp: the CLI's tools (`svc mcp`) served over MCP's streamable HTTP transport, for an agent that is
// not on this machine. The server imports nothing of the CLI (layers): whoever starts it (`svc
// server start`) hands it an `McpEndpointFactory`, loaded on the first request, so a service that
// is never asked for /mcp loads neither the MCP SDK nor the CLI's registry.

/** Who a request's tool calls act as: its own key and sub-account, through this service's API. */
export interface McpCaller {
  apiKey: string;
  subaccount: string | undefined;
  /** This process's own address: every tool call is an API request, with the API's tenancy and limits. */
  baseUrl: string;
  /** `?groups=`: only these groups' tools; undefined: every one. */
  groups: string[] | undefined;
}

export interface McpEndpoint {
  /** The groups `?groups=` may name (those with a tool). */
  groups: readonly string[];
  /** Answers one MCP message (POST /mcp) on `res`; resolves once it is answered. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: McpCaller): Promise<void>;
}

export type McpEndpointFactory = () => Promise<McpEndpoint>;

/** The largest MCP message: what the API takes in one request (a tool call carries one request's input). */
export const MCP_BODY_LIMIT_BYTES = 3 * 1024 * 1024;

/** JSON-RPC's answer to a GET or DELETE: no server-sent stream and no session (stateless, MCP spec). */
const NO_STREAM = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this endpoint is stateless; POST each message' }, id: null };

function groupsOf(req: FastifyRequest, known: readonly string[]): string[] | undefined {
  const raw = (req.query as Record<string, unknown>).groups;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw validationError(['query', 'groups'], 'give it once, comma-separated (groups=messages,numbers)');
  const read = readToolGroups(raw, known);
  if ('refused' in read) throw validationError(['query', 'groups'], read.refused);
  return read.groups;
}

export function mcpRoutes(app: FastifyInstance, factory: McpEndpointFactory | undefined): void {
  let endpoint: Promise<McpEndpoint> | undefined;
  const load = (): Promise<McpEndpoint> => {
    if (!factory) throw new ServiceError('not_found', 'this service serves no MCP endpoint: it is served by `svc server start`');
    // A failed load is tried again by the next request rather than kept.
    return (endpoint ??= factory().catch((err: unknown) => {
      endpoint = undefined;
      throw err;
    }));
  };
  app.post(
    '/mcp',
    // The API's auth (Bearer key, Service-Subaccount) and rate limit (one request from the key's
    // bucket) run before this, as for every route; each tool call is then an API request of its own.
    { schema: { hide: true, consumes: ['application/json'] } as never, bodyLimit: MCP_BODY_LIMIT_BYTES, config: { idempotency: 'pure' } },
    async (req: FastifyRequest, reply: FastifyReply) => {
      const ep = await load();
      const groups = groupsOf(req, ep.groups);
      const baseUrl = ownOrigin(app.server);
      if (!baseUrl) throw new ServiceError('internal_error', 'the service does not know its own address');
      const header = req.headers[SUBACCOUNT_HEADER];
      const apiKey = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')![1]!;
      // A call may wait (wait_for_event, up to 2 minutes): bounded per key and per account, as held reads are.
      const release = app.clientHolds.hold([{ id: `mcp:${req.auth.keyId}`, max: HOLD_LIMITS.mcpRequestsPerKey, what: 'MCP requests of this key' }, accountCounter(req.auth.caller)]);
      // The transport writes the answer itself; the headers set so far (Request-Id, Service-Time,
      // RateLimit-*) go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string);
      reply.raw.once('close', release);
      try {
        await ep.handle(req.raw, reply.raw, req.body, { apiKey, subaccount: Array.isArray(header) ? header[0] : header, baseUrl, groups });
      } catch (err) {
        req.log.error({ err }, 'the MCP endpoint failed');
        if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal_error', message: 'internal error' } }));
        else reply.raw.end();
      } finally {
        if (reply.raw.writableEnded) release();
      }
    },
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true } as never,
      handler: async (_req, reply) => reply.status(405).header('Allow', 'POST').type('application/json').serializer(JSON.stringify).send(NO_STREAM),
    });
  }
}
