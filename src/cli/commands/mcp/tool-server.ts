import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { CliContext } from '../../context.js';
import { CLI_VERSION } from '../../version.js';
import type { RunFunction } from '../../verb.js';
import { optionsOfCall, stdinOfCall, type ToolField, type ToolSpec } from './tools.js';
import type { ToolOutcome } from './call.js';
import { runWaitForEmail, runWaitForEvent } from './waiting.js';
import { MCP_WAIT_DEFAULT_SECS, MCP_WAIT_MAX_SECS } from '../../../api/values/mcp.js';

// The MCP server both transports serve (stdio: mcp.run.ts; HTTP at /mcp: http.run.ts): the registry's
// verbs as tools, and the two waiting tools. Loaded only by those two modules, when they run: the SDK
// and zod are never on another command's path.

/**
 * Runs one call as a command would (call.ts callInContext, with the transport's one credential);
 * `cancelled` is the SDK's signal of the call (the client cancelled it or went away).
 */
export type ToolCaller = (stdin: string | undefined, act: (ctx: CliContext) => Promise<void>, cancelled: AbortSignal) => Promise<ToolOutcome>;

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
  .max(MCP_WAIT_MAX_SECS)
  .optional()
  .describe(`seconds to wait (wall clock), 1-${MCP_WAIT_MAX_SECS}; default ${MCP_WAIT_DEFAULT_SECS}`);

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
      async (args: Record<string, unknown>, extra) =>
        answer(
          await call(
            stdinOfCall(spec, args),
            async (ctx) => {
              const run = (await spec.entry.verb.run()) as RunFunction<Record<string, unknown>>;
              await run(ctx, optionsOfCall(spec, args));
            },
            extra.signal,
          ),
        ),
    );
  }
  const waiting = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
  server.registerTool(
    'wait_for_event',
    {
      description:
        'Wait for the first event emitted after this call began (an item of the events feed: the webhook body, its fields at the top level beside id, type and createdAt) of one of `types` whose fields hold `match`, and return it; a timeout is an error. E.g. messages_send, then wait_for_event {types: ["message.status"], match: {messageId: "msg_…", status: "delivered"}}, then advance the clock on a manual-clock service.',
      inputSchema: z.strictObject({
        types: z.array(z.string()).optional().describe('event types or patterns (message.delivered, message.*); none: any type'),
        match: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("fields the event must hold, as a fixture's wait.match: each key present with an equal value, objects compared key by key in turn, arrays item by item (the event's may be longer)"),
        timeout: timeoutField,
      }),
      annotations: waiting,
    },
    async (args, extra) => {
      // A client that asked for progress hears when the wait listens (an agent's UI, a test that
      // then makes the event happen); each note also keeps a client's request timeout from running out.
      const token = extra._meta?.progressToken;
      const listening = async () => {
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 0, message: 'listening: events from now on are matched' } });
      };
      return answer(await call(undefined, async (ctx) => await runWaitForEvent(ctx, args, listening), extra.signal));
    },
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
    async (args, extra) => answer(await call(undefined, async (ctx) => await runWaitForEmail(ctx, args), extra.signal)),
  );
  return server;
}
