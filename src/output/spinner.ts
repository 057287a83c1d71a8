// A spinner on stderr while a command waits on the network. spec: Output — spinners only when
// stderr is a TTY, data on stdout untouched. Piped or in CI, the spinner is a silent no-op.
// ora takes ~60 ms to import, so it is loaded here, when a spinner starts, never at module load.
import type { IO } from './io.js';

export interface Spinner {
  update(text: string): void;
  /** Stops and leaves "✔ text" on stderr. Resolves once written (commands need not await). */
  succeed(text?: string): Promise<void>;
  /** Stops and leaves "✖ text" on stderr. */
  fail(text?: string): Promise<void>;
  /** Stops and clears the line. */
  stop(): Promise<void>;
}

const SILENT: Spinner = {
  update: () => {},
  succeed: async () => {},
  fail: async () => {},
  stop: async () => {},
};

// ora drives the cursor through the tty.WriteStream methods; these write the same escape codes
// into our stderr sink, so ora never needs process.stderr (conventions: no globals).
function terminalStreamFor(io: IO): NodeJS.WritableStream {
  const write = (text: string): boolean => io.stderr.write(text);
  const stream = {
    isTTY: true,
    get columns() {
      return io.columns;
    },
    write,
    cursorTo: (x: number) => write(`\x1b[${x + 1}G`),
    moveCursor: (dx: number, dy: number) => {
      let codes = '';
      if (dx !== 0) codes += dx > 0 ? `\x1b[${dx}C` : `\x1b[${-dx}D`;
      if (dy !== 0) codes += dy > 0 ? `\x1b[${dy}B` : `\x1b[${-dy}A`;
      return codes === '' ? true : write(codes);
    },
    clearLine: (dir: number) => write(dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K'),
    // ora and cli-cursor may subscribe to stream events; a sink has none to emit.
    on: () => stream,
    once: () => stream,
    removeListener: () => stream,
  };
  return stream as unknown as NodeJS.WritableStream;
}

export function startSpinner(io: IO, text: string): Spinner {
  if (!io.stderrTTY) return SILENT;

  type OraInstance = import('ora').Ora;
  let currentText = text;
  let finished = false;
  let instance: OraInstance | undefined;

  // Starts as soon as ora has loaded, unless the work finished first.
  const ready: Promise<void> = import('ora')
    .then(({ default: ora }) => {
      if (finished) return;
      instance = ora({
        text: currentText,
        stream: terminalStreamFor(io),
        // We decided it is a terminal; ora's own check would read process.env (CI, TERM).
        isEnabled: true,
        // Raw-mode stdin handling would reach for process.stdin; Ctrl-C works without it.
        discardStdin: false,
        color: io.colorEnabled ? 'cyan' : false,
      }).start();
    })
    .catch(() => {
      // No spinner is better than a failed command: the work itself carries on.
    });

  let finishing: Promise<void> | undefined;
  // The first of succeed/fail/stop wins; later calls wait for it instead of printing again.
  const finish = (symbol: 'success' | 'error' | undefined, finalText: string | undefined): Promise<void> =>
    (finishing ??= persist(symbol, finalText));

  const persist = async (symbol: 'success' | 'error' | undefined, finalText: string | undefined): Promise<void> => {
    finished = true;
    await ready;
    const line = finalText ?? currentText;
    if (symbol === undefined) {
      instance?.stop();
      return;
    }
    // Our colours, not ora's log-symbols, so NO_COLOR/--no-color are honoured by our code.
    const { createColors } = await import('./colors.js');
    const colors = createColors(io.colorEnabled);
    const mark = symbol === 'success' ? colors.success('✔') : colors.error('✖');
    if (instance) instance.stopAndPersist({ symbol: mark, text: line });
    else io.stderr.write(`${mark} ${line}\n`);
  };

  return {
    update(newText) {
      currentText = newText;
      if (instance) instance.text = newText;
    },
    succeed: (finalText) => finish('success', finalText),
    fail: (finalText) => finish('error', finalText),
    stop: () => finish(undefined, undefined),
  };
}
