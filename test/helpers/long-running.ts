// Runs a long-running command (`events follow`, `webhooks listen`, `webhooks tail`) in-process and
// controls its Ctrl-C: start it, watch its output while it runs, then stop it and get its result.
import { createTestIO, type TestIO } from '../../src/output/io.js';
import { runSvc, type CliResult, type RunSvcOptions } from './cli.js';
import { WAIT_FLOOR_MS } from './terminal.js';

export interface Running {
  io: TestIO;
  /** Resolves once `test(stdout, stderr)` is true; rejects after `timeoutMs` (at least WAIT_FLOOR_MS) with what was printed. */
  until(test: (out: string, err: string) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  /** Non-empty stdout lines so far. */
  lines(): string[];
  /** Presses Ctrl-C and waits for the command to finish. */
  stop(): Promise<CliResult>;
  /** The command's result (it may finish by itself, e.g. on an error). */
  done: Promise<CliResult>;
}

const started = new Set<Running>();

export function startRunning(args: string[], opts: RunSvcOptions & { tty?: boolean }): Running {
  const tty = opts.tty ?? false;
  const io = opts.io ?? createTestIO({ stdoutTTY: tty, stderrTTY: tty, stdinTTY: tty });
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const done = runSvc(args, { ...opts, io, waitForInterrupt: () => interrupted });
  const running: Running = {
    io,
    done,
    lines: () => io.out().split('\n').filter((l) => l !== ''),
    async until(test, timeoutMs = WAIT_FLOOR_MS, what = 'output') {
      const bound = Math.max(timeoutMs, WAIT_FLOOR_MS);
      const deadline = Date.now() + bound;
      let finished = false;
      void done.then(() => (finished = true));
      while (!test(io.out(), io.err())) {
        if (finished) throw new Error(`svc ${args.join(' ')} ended before ${what}\nstdout: ${io.out()}\nstderr: ${io.err()}`);
        if (Date.now() > deadline) throw new Error(`no ${what} within ${bound} ms\nstdout: ${io.out()}\nstderr: ${io.err()}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async stop() {
      interrupt();
      started.delete(running);
      return done;
    },
  };
  started.add(running);
  return running;
}

/** For afterEach: stops whatever a failed test left running, so vitest can exit. */
export async function stopAllRunning(): Promise<void> {
  await Promise.all([...started].map((r) => r.stop()));
}
