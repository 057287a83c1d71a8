import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { CliContext } from '../../context.js';
import { CLI_VERSION } from '../../version.js';
import type { RunFunction } from '../../verb.js';
import { optionsOfCall, stdinOfCall, type ToolField, type ToolSpec } from './tools.js';
import type { ToolOutcome } from './call.js';
import { runWaitForEmail, runWaitForEvent, WAIT_TOOL_DEFAULT_SECS, WAIT_TOOL_MAX_SECS } from './waiting.js';

// The MCP server both transports serve (stdio: mcp.run.ts; HTTP at /mcp: http.run.ts): the registry's
// verbs as tools, and the two waiting tools. Loaded only by those two modules, when they run: the SDK
// and zod are never on another command's path.

/** Runs one call as a command would (call.ts callInContext, with the transport's one credential). */
export type ToolCaller = (stdin: string | undefined, act: (ctx: CliContext) => Promise<void>) => Promise<ToolOutcome>;

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

const answer = (outcome: ToolOutcome) => ({ content: [{ type: 'text' as const, text: outcome.text }], isError: !outcome.ok });

const timeoutField = z
  .number()
  .int()
  .min(1)
  .max(WAIT_TOOL_MAX_SECS)
  .optional()
  .describe(`seconds to wait (wall clock), 1-${WAIT_TOOL_MAX_SECS}; default ${WAIT_TOOL_DEFAULT_SECS}`);

export function buildToolServer(specs: readonly ToolSpec[], call: ToolCaller): McpServer {
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
      async (args: Record<string, unknown>) =>
        answer(
          await call(stdinOfCall(spec, args), async (ctx) => {
            const run = (await spec.entry.verb.run()) as RunFunction<Record<string, unknown>>;
            await run(ctx, optionsOfCall(spec, args));
          }),
        ),
    );
  }
  const waiting = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  server.registerTool(
    'wait_for_event',
    {
      description:
        'Wait for the first event emitted after this call began (as the events feed lists them: id, type, createdAt, data) of one of `types` that holds `match`, and return it; a timeout is an error. Act first, then wait: e.g. messages_send, then wait_for_event {types: ["message.delivered"], match: {data: {id: "msg_…"}}}.',
      inputSchema: z.strictObject({
        types: z.array(z.string()).optional().describe('event types or patterns (message.delivered, message.*); none: any type'),
        match: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('a part the event must hold: each field present with an equal value, objects compared field by field in turn (so {data: {id: "msg_…"}} is any event of that message); arrays equal item by item'),
        timeout: timeoutField,
      }),
      annotations: waiting,
    },
    async (args) => answer(await call(undefined, async (ctx) => await runWaitForEvent(ctx, args))),
  );
  server.registerTool(
    'wait_for_email',
    {
      description:
        "Wait until the local service's mail sandbox has delivered a message to `to` (one delivered in the last minute of service time counts, as svc emails wait) whose subject matches `subjectMatch`, and return it; a timeout is an error. Live keys only: a test key's emails never reach the sandbox.",
      inputSchema: z.strictObject({
        to: z.string().describe('the recipient address'),
        subjectMatch: z.string().optional().describe('a regular expression in RE2 syntax (no lookarounds or backreferences) the subject must match'),
        timeout: timeoutField,
      }),
      annotations: waiting,
    },
    async (args) => answer(await call(undefined, async (ctx) => await runWaitForEmail(ctx, args))),
  );
  return server;
}
