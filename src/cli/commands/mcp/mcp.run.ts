import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CliContext } from '../../context.js';
import { cliHost } from '../../host.js';
import { UsageError } from '../../errors.js';
import { toolGroups, toolSpecs } from './tools.js';
import { readToolGroups } from '../../../api/values/mcp.js';
import { callInContext } from './call.js';
import { buildToolServer } from './tool-server.js';

// `svc mcp`: loaded only when it runs (the SDK and zod are never on another command's path).

export interface McpOptions {
  readOnly?: boolean;
  groups?: string;
}

export async function runMcp(ctx: CliContext, opts: McpOptions): Promise<void> {
  const { verbs } = await cliHost().loadRegistry();
  let groups: string[] | undefined;
  if (opts.groups !== undefined) {
    const read = readToolGroups(opts.groups, toolGroups(verbs));
    if ('refused' in read) throw new UsageError(`--groups: ${read.refused}`, '--groups');
    groups = read.groups;
  }
  // One credential for the whole session: the profile, key, base URL and sub-account resolved now
  // (the local service started if the profile needs it), never read again from disk or env.
  const pinned = await ctx.serviceSettings();
  const specs = toolSpecs(verbs, { readOnly: Boolean(opts.readOnly), groups });
  const server = buildToolServer(specs, (stdin, act, cancelled) => callInContext(ctx, pinned, stdin, act, cancelled));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // The client went away (its end of stdin closed): stop serving.
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
