import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CliContext } from '../../context.js';
import { cliHost } from '../../host.js';
import { createTestIO } from '../../../output/io.js';
import type { Settings } from '../../../config/resolve.js';
import { toolGroups, toolSpecs, type ToolSpec } from './tools.js';
import { callInContext } from './call.js';
import { buildToolServer } from './tool-server.js';

// The tools of `svc mcp` for the service's /mcp (routes/mcp.ts): `svc server start` hands the
// service this module's endpoint, which it loads on the first /mcp request. The shapes are the
// service's `McpEndpoint` and `McpCaller`, declared again here: the CLI imports the server only
// from `svc server`'s modules.

export interface McpHttpCaller {
  apiKey: string;
  subaccount: string | undefined;
  baseUrl: string;
  groups: string[] | undefined;
}

export interface McpHttpEndpoint {
  groups: readonly string[];
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: McpHttpCaller): Promise<void>;
}

/** Settings made of the request's credential alone: nothing on this machine is read for a call. */
function settingsOf(caller: McpHttpCaller): Settings {
  return {
    profileName: 'mcp',
    configuredProfile: 'mcp',
    baseUrl: caller.baseUrl,
    apiKey: caller.apiKey,
    subaccount: caller.subaccount,
    verbose: false,
    // It is this local service: its held reads (`wait`) are there to use.
    isLocal: true,
    source: { profileName: 'flag', apiKey: 'env', baseUrl: 'flag', subaccount: caller.subaccount ? 'flag' : 'none', output: 'flag', verbose: 'default' },
  };
}

export async function createMcpHttpEndpoint(): Promise<McpHttpEndpoint> {
  const { verbs } = await cliHost().loadRegistry();
  const groups = toolGroups(verbs);
  // The context each call's own is made from: no environment, no home, no terminal.
  const base = new CliContext({ io: createTestIO(), env: {}, homedir: tmpdir(), binPath: '' }, {});
  const specsByGroups = new Map<string, ToolSpec[]>();
  const specsFor = (wanted: string[] | undefined): ToolSpec[] => {
    const key = wanted ? [...wanted].sort().join(',') : '*';
    let specs = specsByGroups.get(key);
    if (!specs) {
      // Bounded: the choices of groups are many, the ones a deployment's agents use are few.
      if (specsByGroups.size >= 32) specsByGroups.clear();
      specsByGroups.set(key, (specs = toolSpecs(verbs, { readOnly: false, groups: wanted })));
    }
    return specs;
  };
  return {
    groups,
    async handle(req, res, body, caller) {
      const pinned = settingsOf(caller);
      // Stateless: a server and a transport per message, as the SDK does it. A request's answer is a
      // server-sent stream, so a waiting tool's progress reaches the client before its result.
      const server = buildToolServer(specsFor(caller.groups), (stdin, act, cancelled) => callInContext(base, pinned, stdin, act, cancelled));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
  };
}
