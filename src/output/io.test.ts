import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { columnsFromEnv, createProcessIO, createTestIO, widthsFor, type ProcessLike, type ProcessWriteStream } from './io.js';

function fakeStream(isTTY: boolean, columns?: number): ProcessWriteStream & { text: string } {
  const emitter = new EventEmitter();
  const stream = {
    text: '',
    isTTY,
    columns,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
    once: (event: string, listener: () => void) => emitter.once(event, listener),
    removeListener: (event: string, listener: () => void) => emitter.removeListener(event, listener),
    emit: (event: string) => emitter.emit(event),
  };
  return stream;
}

function fakeProcess(opts: { stdoutTTY: boolean; env?: Record<string, string | undefined> }): ProcessLike {
  return {
    stdout: fakeStream(opts.stdoutTTY, 132),
    stderr: fakeStream(true, 100),
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: opts.env ?? {},
  };
}

describe('createProcessIO', () => {
  it('enables colour on a terminal when nothing says otherwise', () => {
    const io = createProcessIO(fakeProcess({ stdoutTTY: true }), { noColor: false });
    expect(io.colorEnabled).toBe(true);
    expect(io.stdoutTTY).toBe(true);
    expect(io.columns).toBe(132);
  });

  it.each([
    ['--no-color', { stdoutTTY: true }, true],
    ['NO_COLOR=1', { stdoutTTY: true, env: { NO_COLOR: '1' } }, false],
    ['stdout piped', { stdoutTTY: false }, false],
    ['TERM=dumb', { stdoutTTY: true, env: { TERM: 'dumb' } }, false],
  ])('disables colour with %s', (_name, proc, noColor) => {
    expect(createProcessIO(fakeProcess(proc), { noColor }).colorEnabled).toBe(false);
  });

  it('ignores an empty NO_COLOR (no-color.org: set and non-empty)', () => {
    const io = createProcessIO(fakeProcess({ stdoutTTY: true, env: { NO_COLOR: '' } }), { noColor: false });
    expect(io.colorEnabled).toBe(true);
  });

  it('writes through to the streams it was given, and drain resolves on close', async () => {
    const proc = fakeProcess({ stdoutTTY: false });
    const io = createProcessIO(proc, { noColor: false });
    io.stdout.write('data');
    io.stderr.write('note');
    expect((proc.stdout as ReturnType<typeof fakeStream>).text).toBe('data');
    expect((proc.stderr as ReturnType<typeof fakeStream>).text).toBe('note');
    expect(io.columns).toBe(100); // stdout piped: the stderr terminal's width (spinners, prompts)
    expect(io.stdoutColumns).toBeUndefined(); // …but a pipe has no width: tables are not squeezed
    const waiting = io.stdout.drain?.();
    (proc.stdout as unknown as { emit(e: string): void }).emit('close');
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe('widths: the terminal, COLUMNS, and pipes', () => {
  it('reads COLUMNS only when it is a positive integer', () => {
    expect(columnsFromEnv({ COLUMNS: '120' })).toBe(120);
    expect(columnsFromEnv({ COLUMNS: ' 90 ' })).toBe(90);
    for (const bad of [undefined, '', '0', '-5', '80px', '1e3', '12.5', 'wide']) expect(columnsFromEnv({ COLUMNS: bad })).toBeUndefined();
  });

  it('a terminal: tables fit its width', () => {
    const io = createProcessIO(fakeProcess({ stdoutTTY: true }), { noColor: false });
    expect([io.columns, io.stdoutColumns]).toEqual([132, 132]);
  });

  it('COLUMNS overrides the terminal, and gives a pipe a width', () => {
    const onTerminal = createProcessIO(fakeProcess({ stdoutTTY: true, env: { COLUMNS: '80' } }), { noColor: false });
    expect([onTerminal.columns, onTerminal.stdoutColumns]).toEqual([80, 80]);
    const piped = createProcessIO(fakeProcess({ stdoutTTY: false, env: { COLUMNS: '200' } }), { noColor: false });
    expect([piped.columns, piped.stdoutColumns]).toEqual([200, 200]);
  });

  it('a pipe without COLUMNS has no width for tables, whatever the terminal on stderr', () => {
    expect(widthsFor({ env: {}, stdoutTTY: false, stderrTTY: true, stderrWidth: 100 })).toEqual({ columns: 100, stdoutColumns: undefined });
    expect(widthsFor({ env: {}, stdoutTTY: false, stderrTTY: false })).toEqual({ columns: 80, stdoutColumns: undefined });
    // A terminal that does not say its width (some CI runners): 80.
    expect(widthsFor({ env: {}, stdoutTTY: true, stderrTTY: true, stdoutWidth: 0 })).toEqual({ columns: 80, stdoutColumns: 80 });
  });

  it('createTestIO follows the same rules', () => {
    expect(createTestIO({ stdoutTTY: true, columns: 90 }).stdoutColumns).toBe(90);
    expect(createTestIO({ stdoutTTY: false, columns: 90 }).stdoutColumns).toBeUndefined();
    expect(createTestIO({ stdoutTTY: false, env: { COLUMNS: '70' } }).stdoutColumns).toBe(70);
  });
});

describe('createTestIO', () => {
  it('captures stdout and stderr separately and defaults to a pipe', async () => {
    const io = createTestIO({ stdin: 'sk_test_123\n' });
    io.stdout.write('a');
    io.stderr.write('b');
    io.stdout.write('c');
    expect(io.out()).toBe('ac');
    expect(io.err()).toBe('b');
    expect([io.stdoutTTY, io.stderrTTY, io.stdinTTY, io.colorEnabled]).toEqual([false, false, false, false]);
    let input = '';
    for await (const chunk of io.stdin as AsyncIterable<string>) input += chunk;
    expect(input).toBe('sk_test_123\n');
  });
});
