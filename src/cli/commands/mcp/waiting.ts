import type { CliContext } from '../../context.js';
import { CliError } from '../../errors.js';
import { EventStream } from '../../event-stream.js';
import { printOne } from '../../print-resource.js';
import { runWaitEmail } from '../emails/wait.run.js';
import { DEFAULT_WAIT_SINCE } from '../emails/wait-options.js';
import { durationFlag } from '../../duration.js';
import { subsetMismatch } from '../fixtures/references.js';
import { MCP_WAIT_DEFAULT_SECS } from '../../../api/values/mcp.js';

// The two waiting tools `svc mcp` and `/mcp` serve beside the verbs (cli.md "Agents"): an agent acts,
// then waits for the platform's answer as a test would. Run like a verb (call.ts callInContext): the
// answer is JSON on standard output, a refusal the envelope with the exit code.

export interface WaitForEventArgs {
  /** Event types or patterns (`message.*`), as the feed's `types` takes them; none: every type. */
  types?: string[];
  /**
   * Fields the event must hold, as a fixture's `wait.match` (`subsetMismatch`): each key present
   * with an equal value, objects in turn, arrays item by item.
   */
  match?: Record<string, unknown>;
  timeout?: number;
}

/**
 * Stops `signal` after `secs` of wall time (the agent's patience, not the service clock), or when
 * the call is cancelled (its client went away: no one would read the answer).
 */
function deadline(ctx: CliContext, secs: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), secs * 1000);
  void ctx.environment.waitForInterrupt?.().then(() => controller.abort());
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * The first event after the call began (the feed's head read at its start, then held reads after
 * it) of one of `types` that holds `match`; a timeout is exit 1, as `svc emails wait`'s.
 * `listening` is told once the head is read: from then on no matching event is missed.
 */
export async function runWaitForEvent(ctx: CliContext, args: WaitForEventArgs, listening: () => Promise<void> = async () => {}): Promise<void> {
  const secs = args.timeout ?? MCP_WAIT_DEFAULT_SECS;
  const { signal, clear } = deadline(ctx, secs);
  try {
    const stream = new EventStream(ctx, { types: args.types?.length ? args.types : undefined, since: 'now', signal, pageSize: 100 });
    if (await stream.start()) {
      await listening();
      for await (const { item } of stream.events()) {
        if (args.match === undefined || subsetMismatch(args.match, item) === undefined) return await printOne(ctx, item);
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
    timeoutSecs: args.timeout ?? MCP_WAIT_DEFAULT_SECS,
    since: durationFlag(DEFAULT_WAIT_SINCE, '--since', 0),
  });
}
