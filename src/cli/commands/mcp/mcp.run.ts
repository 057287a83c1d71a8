import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import type { CliContext } from '../../context.js';
import { CLI_VERSION } from '../../version.js';
import { cliHost } from '../../host.js';
import { toolSpecs, type ToolField } from './tools.js';
import { callTool } from './call.js';

// `svc mcp`: loaded only when it runs (the SDK and zod are never on another command's path).

export interface McpOptions {
  readOnly?: boolean;
}

function fieldSchema(f: ToolField): z.ZodType {
  let s: z.ZodType;
  if (f.choices?.length) s = z.enum(f.choices as [string, ...string[]]);
  else if (f.type === 'boolean') s = z.boolean();
  else if (f.type === 'integer') s = z.number().int();
  else if (f.type === 'number') s = z.number();
  else if (f.type === 'strings') s = z.array(z.string());
  else s = z.string();
  s = s.describe(`${f.description} (${f.source})`);
  return f.required ? s : s.optional();
}

export async function runMcp(ctx: CliContext, opts: McpOptions): Promise<void> {
  // One credential for the whole session: the profile, key, base URL and sub-account resolved now
  // (the local service started if the profile needs it), never read again from disk or env.
  const pinned = await ctx.serviceSettings();
  const { verbs } = await cliHost().loadRegistry();
  const specs = toolSpecs(verbs, { readOnly: Boolean(opts.readOnly) });
  const server = new McpServer({ name: 'svc', version: CLI_VERSION });
  for (const spec of specs) {
    const shape = Object.fromEntries(spec.fields.map((f) => [f.key, fieldSchema(f)]));
    server.registerTool(
      spec.name,
      {
        description: spec.description,
        // Unknown keys are refused: a misspelt flag must not be silently dropped.
        inputSchema: z.strictObject(shape),
        annotations: { readOnlyHint: !spec.changes, destructiveHint: spec.changes, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        const outcome = await callTool(ctx, pinned, spec, args);
        return { content: [{ type: 'text' as const, text: outcome.text }], isError: !outcome.ok };
      },
    );
  }
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
