// What the long-running commands (`events follow`, `webhooks listen`, `webhooks tail`) share:
// stopping on Ctrl-C, waiting with backoff, saying once that the service stopped answering, and
// printing one line per thing that happened in the format asked for.
//
// cli.md: 130 means "interrupted", but for these commands Ctrl-C is the normal way to stop, not a
// failure: they stop cleanly and exit 0 (each says so in its --help).
import type { CliContext } from './context.js';
import { writeAndDrain } from '../output/io.js';
import type { OutputFormat } from '../output/formatters.js';
import { createListEncoder, type ListEncoder } from '../output/list-encoders.js';
import { loadColors } from '../output/load-colors.js';
import { ApiError, NetworkError, errorCode } from '../api/client/errors.js';
import type { Colors } from '../output/colors.js';

/** Aborts when the environment reports Ctrl-C / SIGTERM (never, when it cannot tell). */
export function interruptSignal(ctx: CliContext): AbortSignal {
  const controller = new AbortController();
  void ctx.environment.waitForInterrupt?.().then(() => {
    // The terminal echoed ^C without a newline: end that line so the shell prompt starts clean.
    if (ctx.io.stderrTTY) ctx.io.stderr.write('\n');
    controller.abort(new Error('interrupted'));
  });
  return controller.signal;
}

/**
 * Holds Ctrl-C off while work must not stop halfway (swapping a service's data, undoing a run): each
 * press is noted (`onPress` on the first) and the process is never killed by it; re-armed after
 * every press, so a second one is held too. `release()` when the work is done.
 */
export function holdInterrupts(ctx: CliContext, onPress?: () => void): { readonly pressed: boolean; release(): void } {
  const state = { pressed: false, released: false };
  const press = (): void => {
    if (state.released) return;
    if (!state.pressed) onPress?.();
    state.pressed = true;
  };
  const persistent = ctx.environment.onInterrupt?.(press);
  if (persistent) {
    return {
      get pressed() {
        return state.pressed;
      },
      release: () => {
        state.released = true;
        persistent();
      },
    };
  }
  const arm = (): void =>
    void ctx.environment.waitForInterrupt?.().then(() => {
      if (state.released) return;
      if (!state.pressed) onPress?.();
      state.pressed = true;
      arm();
    });
  arm();
  return {
    get pressed() {
      return state.pressed;
    },
    release: () => void (state.released = true),
  };
}

/** Sleeps `ms`; resolves false at once when the signal aborts (true when the time ran out). */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (slept: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(slept);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** 1 s, 2 s, 4 s … capped (30 s by default); reset() after a success. */
export class Backoff {
  private failures = 0;
  constructor(
    private readonly firstMs = 1000,
    private readonly capMs = 30_000,
  ) {}
  next(): number {
    const ms = Math.min(this.capMs, this.firstMs * 2 ** this.failures);
    this.failures++;
    return ms;
  }
  reset(): void {
    this.failures = 0;
  }
  get count(): number {
    return this.failures;
  }
}

/**
 * Errors that mean "the service is not answering right now" (refused, reset, timed out, 429, 5xx):
 * a follower says so once and keeps retrying. Anything else (401, 404, a bad flag) ends the command.
 */
export async function isUnavailable(err: unknown): Promise<boolean> {
  if (err instanceof NetworkError) return true;
  if (err instanceof ApiError) return err.status === 408 || err.status === 429 || err.status >= 500;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('UND_ERR_');
}

/** Says once that the service stopped answering, and once that it is back (never dies silently). */
export class ServiceHealth {
  private down = false;
  constructor(
    private readonly ctx: CliContext,
    private readonly what: string,
  ) {}

  async failed(err: unknown, retryInMs: number): Promise<void> {
    if (this.down) return;
    this.down = true;
    const reason = (err as { code?: string; status?: number }).status ? `HTTP ${(err as { status: number }).status}` : (errorCode(err) ?? (err as Error)?.message ?? 'error');
    this.ctx.io.stderr.write(`svc: ${this.what} is not answering (${reason}); retrying with backoff (next in ${Math.round(retryInMs / 1000)}s), Ctrl-C to stop\n`);
  }

  answered(): void {
    if (!this.down) return;
    this.down = false;
    this.ctx.io.stderr.write(`svc: ${this.what} answers again; resuming\n`);
  }
}

/** 12:04:05 local time (a terminal), or the ISO timestamp itself (pipes keep ISO times). */
export function clockTime(iso: string | Date): string {
  const d = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export interface LinePrinter {
  /** How lines look: `table` = a human line (a terminal's default), the others as `-o` names them. */
  readonly format: OutputFormat | 'tsv';
  readonly colors: Colors;
  /**
   * One thing that happened. `record` is what json/ndjson/yaml/ids print (json prints one object
   * per line, so a follower's output is always line-delimited); `row` is what tsv and csv print,
   * flattened, in `columns` order; `human` renders the terminal line.
   */
  print(record: object, row: object, human: (c: Colors) => string): Promise<void>;
}

/**
 * The printer for a follower's lines. Default: a human line on a terminal, tab-separated rows (ISO
 * times, no header, no colour) into a pipe, like every list (cli.md).
 */
export async function createLinePrinter(ctx: CliContext, opts: { columns: string[]; idField?: string }): Promise<LinePrinter> {
  const requested = ctx.outputFormat;
  const format: OutputFormat | 'tsv' = requested ?? (ctx.io.stdoutTTY ? 'table' : 'tsv');
  const colors = await loadColors(ctx.io.colorEnabled);
  let encoder: ListEncoder | undefined;
  if (format !== 'table' && format !== 'json') {
    encoder = await createListEncoder(format, ctx.io, { columns: opts.columns, idField: opts.idField });
  }
  const tabular = format === 'tsv' || format === 'csv';
  return {
    format,
    colors,
    async print(record, row, human) {
      let text: string;
      if (format === 'table') text = `${human(colors)}\n`;
      else if (format === 'json') text = `${JSON.stringify(record)}\n`;
      else text = await encoder!.page([tabular ? row : record]);
      await writeAndDrain(ctx.io.stdout, text);
    },
  };
}
