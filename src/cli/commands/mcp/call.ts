import { CliContext, type GlobalFlags } from '../../context.js';
import { cliHost } from '../../host.js';
import { ExitStatus } from '../../errors.js';
import { createTestIO } from '../../../output/io.js';
import type { Settings } from '../../../config/resolve.js';

// One tool call: the verb's own run function, as `svc … -o json --no-input --yes` would run it, its
// output captured. A refusal is what `-o json` writes on stderr (the API's envelope, or a usage
// error in the same shape) with the exit code main.ts gives it.

export interface ToolOutcome {
  ok: boolean;
  /** The verb's JSON output (or, for a verb that prints none, what it said on stderr). */
  text: string;
  exitCode: number;
}

/** The settings a tool call inherits from `svc mcp`'s own command line. */
export const inheritedFlags = (flags: GlobalFlags): GlobalFlags => ({
  profile: flags.profile,
  baseUrl: flags.baseUrl,
  subaccount: flags.subaccount,
  configDir: flags.configDir,
});

/**
 * Runs one call (`act`: a verb's run function, or a waiting tool of waiting.ts) with `pinned`, the
 * one credential of the transport (`svc mcp`: the settings resolved at its start, whatever the
 * profiles on disk say by then; /mcp: the request's key), as a command run with `-o json
 * --no-input --yes`, its output captured. `cancelled` (the client cancelled the call, or went away)
 * is the call's Ctrl-C: a verb or a tool that waits stops waiting.
 */
export async function callInContext(parent: CliContext, pinned: Settings, stdin: string | undefined, act: (ctx: CliContext) => Promise<void>, cancelled?: AbortSignal): Promise<ToolOutcome> {
  const io = createTestIO({ stdin });
  const waitForInterrupt = cancelled && (() => new Promise<void>((resolve) => (cancelled.aborted ? resolve() : cancelled.addEventListener('abort', () => resolve(), { once: true }))));
  // The agent's call is the confirmation (its client asks the person for destructive tools).
  const ctx = new CliContext({ ...parent.environment, io, pinned, ...(waitForInterrupt ? { waitForInterrupt } : {}) }, { ...inheritedFlags(parent.flags), output: 'json', input: false, yes: true, color: false });
  let exitCode = 0;
  let answered = false;
  try {
    await act(ctx);
  } catch (err) {
    // A verb that printed its answer and then exits non-zero (`calls test` with a failed test) ran
    // fine: its answer is the tool's output, flagged as an error as the exit code says.
    answered = err instanceof ExitStatus && io.out().trim() !== '';
    exitCode = cliHost().reportError(err, ctx);
  } finally {
    await ctx.close();
  }
  if (exitCode !== 0) return { ok: false, exitCode, text: answered ? io.out().trim() : errorText(io.err(), exitCode) };
  const out = io.out().trim();
  return { ok: true, exitCode, text: out || JSON.stringify({ ok: true, message: io.err().trim() || null }) };
}

/** The envelope with the exit code beside it; a message that was no envelope becomes one. */
function errorText(stderr: string, exitCode: number): string {
  const line = stderr.trim().split('\n').find((l) => l.startsWith('{'));
  if (line) {
    try {
      return JSON.stringify({ ...(JSON.parse(line) as object), exitCode });
    } catch {
      // not JSON after all: fall through
    }
  }
  return JSON.stringify({ error: { code: 'cli_error', message: stderr.trim().replace(/^error: /, '') }, exitCode });
}
