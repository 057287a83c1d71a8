// The streams every command writes to, and the facts about the terminal that decide how output
// looks. Commands get an IO from the context and never touch `process` themselves
// (conventions: "Nothing reaches for globals"), so tests swap in createTestIO().
import { Readable } from 'node:stream';

/** Where text goes. `drain` lets a long `--all` stream wait for a slow reader instead of buffering. */
export interface TextSink {
  write(text: string): boolean;
  /** Raw bytes (a recording piped to a player); absent when the sink takes text only. */
  writeBytes?(bytes: Uint8Array): boolean;
  /** Resolves once the sink accepts writes again (or is gone). Absent: the sink never pushes back. */
  drain?(): Promise<void>;
}

export interface IO {
  stdout: TextSink;
  stderr: TextSink;
  stdin?: NodeJS.ReadableStream;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  stdinTTY: boolean;
  /** Decided once here; every colour in our output follows it (spec: NO_COLOR honoured by our code). */
  colorEnabled: boolean;
  /**
   * Width of the terminal the user looks at, for what is drawn on stderr (spinners, prompts):
   * `COLUMNS`, else stdout's or stderr's terminal width, else 80.
   */
  columns: number;
  /**
   * Width that stdout's tables must fit: `COLUMNS` (a positive integer) when set, else stdout's
   * terminal width; undefined when stdout is a pipe and `COLUMNS` is not set. A pipe has no width:
   * `-o table | less -S` or into a file gets every cell whole (see widthsFor).
   */
  stdoutColumns: number | undefined;
}

/** The parts of a Node stream we use; `process.stdout` and `process.stderr` satisfy it. */
/** What renderers need to know about the terminal; an IO satisfies it. */
export type Display = Pick<IO, 'stdoutTTY' | 'colorEnabled' | 'stdoutColumns'>;

/**
 * Writes and, when the sink pushes back, waits until it drains: a long `--all` stream then runs
 * at the reader's pace instead of piling pages up in memory.
 */
export async function writeAndDrain(sink: TextSink, text: string): Promise<void> {
  if (text === '') return;
  if (!sink.write(text) && sink.drain) await sink.drain();
}

export interface ProcessWriteStream {
  write(chunk: string | Uint8Array): boolean;
  isTTY?: boolean;
  columns?: number;
  destroyed?: boolean;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  removeListener(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

/** The parts of `process` we use; pass `process` itself. */
export interface ProcessLike {
  stdout: ProcessWriteStream;
  stderr: ProcessWriteStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export interface ProcessIOOptions {
  /** `--no-color` was given. */
  noColor: boolean;
}

const DEFAULT_COLUMNS = 80;

/** `COLUMNS` when it is a positive integer (what shells and `COLUMNS=120 svc …` set), else undefined. */
export function columnsFromEnv(env: Record<string, string | undefined>): number | undefined {
  const value = env.COLUMNS?.trim();
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const columns = Number(value);
  return columns > 0 && Number.isSafeInteger(columns) ? columns : undefined;
}

export interface WidthInput {
  env: Record<string, string | undefined>;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  /** The terminals' own widths (`stream.columns`), when they are terminals. */
  stdoutWidth?: number;
  stderrWidth?: number;
}

/**
 * The one place widths are decided. `COLUMNS` says how wide the output should be and wins, also
 * into a pipe (`COLUMNS=100 svc messages list -o table | cat`); otherwise tables fit stdout's
 * terminal, and into a pipe they are not squeezed at all (stdoutColumns undefined): a pipe has no
 * width, and a table cut to 80 characters in a file helps no one.
 */
export function widthsFor(input: WidthInput): Pick<IO, 'columns' | 'stdoutColumns'> {
  const fromEnv = columnsFromEnv(input.env);
  const positive = (width: number | undefined): number | undefined => (width !== undefined && width > 0 ? width : undefined);
  const stdoutWidth = input.stdoutTTY ? positive(input.stdoutWidth) : undefined;
  const stderrWidth = input.stderrTTY ? positive(input.stderrWidth) : undefined;
  return {
    columns: fromEnv ?? stdoutWidth ?? stderrWidth ?? DEFAULT_COLUMNS,
    stdoutColumns: fromEnv ?? (input.stdoutTTY ? (stdoutWidth ?? DEFAULT_COLUMNS) : undefined),
  };
}

/**
 * Colour is on only when nothing asked for it to be off.
 * spec: `--no-color`, NO_COLOR (set and non-empty, as no-color.org defines it), or stdout not a TTY.
 * TERM=dumb terminals cannot render escape codes either.
 */
export function shouldUseColor(input: {
  noColor: boolean;
  env: Record<string, string | undefined>;
  stdoutTTY: boolean;
}): boolean {
  if (input.noColor) return false;
  const noColorEnv = input.env.NO_COLOR;
  if (noColorEnv !== undefined && noColorEnv !== '') return false;
  if (input.env.TERM === 'dumb') return false;
  return input.stdoutTTY;
}

function sinkFor(stream: ProcessWriteStream): TextSink {
  return {
    write: (text) => stream.write(text),
    writeBytes: (bytes) => stream.write(bytes),
    // Waits for 'drain', but also gives up on 'close'/'error' so a closed pipe (`| head`) never hangs us.
    drain: () =>
      new Promise<void>((resolve) => {
        if (stream.destroyed) {
          resolve();
          return;
        }
        const done = (): void => {
          stream.removeListener('drain', done);
          stream.removeListener('close', done);
          stream.removeListener('error', done);
          resolve();
        };
        stream.once('drain', done);
        stream.once('close', done);
        stream.once('error', done);
      }),
  };
}

/** Builds the real IO from the `process` passed in by main.ts. */
export function createProcessIO(proc: ProcessLike, opts: ProcessIOOptions): IO {
  const stdoutTTY = proc.stdout.isTTY === true;
  const stderrTTY = proc.stderr.isTTY === true;
  return {
    stdout: sinkFor(proc.stdout),
    stderr: sinkFor(proc.stderr),
    // Getters: touching process.stdin creates a handle, which most commands never need.
    get stdin() {
      return proc.stdin;
    },
    get stdinTTY() {
      return proc.stdin.isTTY === true;
    },
    stdoutTTY,
    stderrTTY,
    colorEnabled: shouldUseColor({ noColor: opts.noColor, env: proc.env, stdoutTTY }),
    // Getters so a resized terminal is measured when a table is drawn, not at startup.
    get columns() {
      return widthsFor({ env: proc.env, stdoutTTY, stderrTTY, stdoutWidth: proc.stdout.columns, stderrWidth: proc.stderr.columns }).columns;
    },
    get stdoutColumns() {
      return widthsFor({ env: proc.env, stdoutTTY, stderrTTY, stdoutWidth: proc.stdout.columns, stderrWidth: proc.stderr.columns }).stdoutColumns;
    },
  };
}

export interface TestIOOptions {
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  color?: boolean;
  /** The terminal's width (stdout's when it is a terminal, else stderr's); default 80. */
  columns?: number;
  /** Only `COLUMNS` is read, the way createProcessIO reads it. */
  env?: Record<string, string | undefined>;
  /** Text the command reads from stdin; no stdin stream when omitted. */
  stdin?: string;
}

export interface TestIO extends IO {
  /** Everything written to stdout so far. */
  out(): string;
  /** The bytes written to stdout with writeBytes, in order. */
  outBytes(): Buffer;
  /** Everything written to stderr so far. */
  err(): string;
}

/** A fake IO capturing output, like the GitHub CLI's iostreams.Test(). Pipes (no TTY, no colour) unless told. */
export function createTestIO(opts: TestIOOptions = {}): TestIO {
  let out = '';
  let err = '';
  const bytes: Buffer[] = [];
  const stdoutTTY = opts.stdoutTTY ?? false;
  const stderrTTY = opts.stderrTTY ?? false;
  const terminal = opts.columns ?? DEFAULT_COLUMNS;
  const widths = widthsFor({ env: opts.env ?? {}, stdoutTTY, stderrTTY: true, stdoutWidth: terminal, stderrWidth: terminal });
  return {
    stdout: {
      write: (text) => {
        out += text;
        return true;
      },
      writeBytes: (chunk) => {
        bytes.push(Buffer.from(chunk));
        return true;
      },
    },
    stderr: {
      write: (text) => {
        err += text;
        return true;
      },
    },
    stdin: opts.stdin === undefined ? undefined : Readable.from([opts.stdin]),
    stdoutTTY,
    stderrTTY,
    stdinTTY: opts.stdinTTY ?? false,
    colorEnabled: opts.color ?? false,
    ...widths,
    out: () => out,
    outBytes: () => Buffer.concat(bytes),
    err: () => err,
  };
}

/**
 * The same captured IO for a command run inside another: `svc fixtures run` runs an `svc:` step's
 * verb in-process and reads its output as the step's result.
 */
export const createCapturedIO = createTestIO;
