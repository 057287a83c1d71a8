import type { CliContext } from '../../context.js';
import { CliError } from '../../errors.js';
import { EventStream } from '../../event-stream.js';
import { printOne } from '../../print-resource.js';
import { runWaitEmail } from '../emails/wait.run.js';
import { DEFAULT_WAIT_SINCE } from '../emails/wait-options.js';
import { durationFlag } from '../../duration.js';

// The two waiting tools `svc mcp` and `/mcp` serve beside the verbs (cli.md "Agents"): an agent acts,
// then waits for the platform's answer as a test would. Run like a verb (call.ts callInContext): the
// answer is JSON on standard output, a refusal the envelope with the exit code.

/** Seconds a waiting tool waits when the call says nothing: as `svc emails wait --timeout`. */
export const WAIT_TOOL_DEFAULT_SECS = 30;
/**
 * The longest a waiting tool waits: a call over HTTP holds a connection (and one of its key's MCP
 * requests) that long, and an MCP client gives up on a request after 60 s unless told otherwise.
 */
export const WAIT_TOOL_MAX_SECS = 120;

export interface WaitForEventArgs {
  /** Event types or patterns (`message.*`), as the feed's `types` takes them; none: every type. */
  types?: string[];
  /** A part of the event it must have (`matchesPart`). */
  match?: Record<string, unknown>;
  timeout?: number;
}

/**
 * Whether `value` holds `part`: every field of an object `part` present in `value` and holding its
 * part in turn (so `{data: {id: "msg_…"}}` matches the events of that message whatever else they
 * carry); an array equal item by item; a scalar equal.
 */
export function matchesPart(value: unknown, part: unknown): boolean {
  if (Array.isArray(part)) return Array.isArray(value) && value.length === part.length && part.every((p, i) => matchesPart(value[i], p));
  if (part !== null && typeof part === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    return Object.entries(part).every(([k, p]) => Object.hasOwn(value, k) && matchesPart((value as Record<string, unknown>)[k], p));
  }
  return Object.is(value, part);
}

/** Stops `signal` after `secs` of wall time: the agent's patience, not the service clock. */
function deadline(secs: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), secs * 1000);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * The first event after the call began (the feed's head read at its start, then held reads after
 * it) of one of `types` that holds `match`; a timeout is exit 1, as `svc emails wait`'s.
 */
export async function runWaitForEvent(ctx: CliContext, args: WaitForEventArgs): Promise<void> {
  const secs = args.timeout ?? WAIT_TOOL_DEFAULT_SECS;
  const { signal, clear } = deadline(secs);
  try {
    const stream = new EventStream(ctx, { types: args.types?.length ? args.types : undefined, since: 'now', signal, pageSize: 100 });
    if (await stream.start()) {
      for await (const { item } of stream.events()) {
        if (args.match === undefined || matchesPart(item, args.match)) return await printOne(ctx, item);
      }
    }
  } finally {
    clear();
  }
  const what = `${args.types?.length ? ` of ${args.types.join(', ')}` : ''}${args.match ? ` holding ${JSON.stringify(args.match)}` : ''}`;
  throw new CliError(`timed out after ${secs}s: no event${what} since the call began (on a manual clock events come only when the clock moves: svc clock advance)`);
}

export interface WaitForEmailArgs {
  to: string;
  subjectMatch?: string;
  timeout?: number;
}

/** `svc emails wait --to … --subject-match … --timeout …s`, its `--since` the default (1m). */
export async function runWaitForEmail(ctx: CliContext, args: WaitForEmailArgs): Promise<void> {
  await runWaitEmail(ctx, {
    to: args.to,
    subjectMatch: args.subjectMatch,
    timeoutSecs: args.timeout ?? WAIT_TOOL_DEFAULT_SECS,
    since: durationFlag(DEFAULT_WAIT_SINCE, '--since', 0),
  });
}
