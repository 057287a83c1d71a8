import { CancelledError, UsageError } from './errors.js';
import type { IO } from '../output/io.js';

/**
 * Prompts, injected (conventions 4). With --no-input, CI set, or no terminal, a missing value is an
 * error naming the flag that supplies it. @inquirer/prompts is loaded only when a prompt is shown.
 */
export interface Prompter {
  readonly enabled: boolean;
  input(message: string, opts: { flag: string; default?: string; validate?: (v: string) => true | string }): Promise<string>;
  password(message: string, opts: { flag: string }): Promise<string>;
  confirm(message: string, opts: { flag: string; default?: boolean }): Promise<boolean>;
  select<T extends string>(message: string, choices: Array<{ value: T; name?: string }>, opts: { flag: string }): Promise<T>;
}

export function createPrompter(io: IO, enabled: boolean): Prompter {
  const refuse = (flag: string, message: string): never => {
    throw new UsageError(`${flag} is needed: cannot ask "${message}" without a terminal (or with --no-input or CI set)`, flag);
  };
  // @inquirer pipes its output into a real stream (it listens for events on it): wrap our stderr
  // sink in one that says it is the terminal it writes to.
  const streams = async () => {
    const { Writable } = await import('node:stream');
    const output = Object.assign(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          io.stderr.write(chunk.toString());
          done();
        },
      }),
      { isTTY: true, get columns() { return io.columns; } },
    );
    return { input: io.stdin as NodeJS.ReadableStream, output };
  };
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err && typeof err === 'object' && (err as { name?: string }).name === 'ExitPromptError') throw new CancelledError();
      throw err;
    }
  };
  return {
    enabled,
    async input(message, opts) {
      if (!enabled) return refuse(opts.flag, message);
      const { input } = await import('@inquirer/prompts');
      return guard(async () => input({ message, default: opts.default, validate: opts.validate }, (await streams()) as never));
    },
    async password(message, opts) {
      if (!enabled) return refuse(opts.flag, message);
      const { password } = await import('@inquirer/prompts');
      return guard(async () => password({ message, mask: '*' }, (await streams()) as never));
    },
    async confirm(message, opts) {
      if (!enabled) return refuse(opts.flag, message);
      const { confirm } = await import('@inquirer/prompts');
      return guard(async () => confirm({ message, default: opts.default ?? false }, (await streams()) as never));
    },
    async select(message, choices, opts) {
      if (!enabled) return refuse(opts.flag, message);
      const { select } = await import('@inquirer/prompts');
      return guard(async () => select({ message, choices }, (await streams()) as never)) as Promise<typeof choices[number]['value']>;
    },
  };
}
