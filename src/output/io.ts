// The streams every command writes to, and the facts about the terminal that decide how output
// looks. Commands get an IO from the context and never touch `process` themselves
// (conventions: "Nothing reaches for globals"), so tests swap in createTestIO().
import { Readable } from 'node:stream';

/** Where text goes. `drain` lets a long `--all` stream wait for a slow reader instead of buffering. */
export interface TextSink {
  write(text: string): boolean;
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
  /** Terminal width used to fit tables; 80 when unknown (pipes). */
  columns: number;
}

/** The parts of a Node stream we use; `process.stdout` and `process.stderr` satisfy it. */
/** What renderers need to know about the terminal; an IO satisfies it. */
export type Display = Pick<IO, 'stdoutTTY' | 'colorEnabled' | 'columns'>;

/**
 * Writes and, when the sink pushes back, waits until it drains: a long `--all` stream then runs
 * at the reader's pace instead of piling pages up in memory.
 */
export async function writeAndDrain(sink: TextSink, text: string): Promise<void> {
  if (text === '') return;
  if (!sink.write(text) && sink.drain) await sink.drain();
}

export interface ProcessWriteStream {
  write(chunk: string): boolean;
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
    // A getter so a resized terminal is measured when a table is drawn, not at startup.
    get columns() {
      const width = (stdoutTTY ? proc.stdout.columns : undefined) ?? (stderrTTY ? proc.stderr.columns : undefined);
      return width && width > 0 ? width : DEFAULT_COLUMNS;
    },
  };
}

export interface TestIOOptions {
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  stdinTTY?: boolean;
  color?: boolean;
  columns?: number;
  /** Text the command reads from stdin; no stdin stream when omitted. */
  stdin?: string;
}

export interface TestIO extends IO {
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

/** A fake IO capturing output, like the GitHub CLI's iostreams.Test(). Pipes (no TTY, no colour) unless told. */
export function createTestIO(opts: TestIOOptions = {}): TestIO {
  let out = '';
  let err = '';
  return {
    stdout: {
      write: (text) => {
        out += text;
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
    stdoutTTY: opts.stdoutTTY ?? false,
    stderrTTY: opts.stderrTTY ?? false,
    stdinTTY: opts.stdinTTY ?? false,
    colorEnabled: opts.color ?? false,
    columns: opts.columns ?? DEFAULT_COLUMNS,
    out: () => out,
    err: () => err,
  };
}
