import { describe, expect, it } from 'vitest';
import { Command } from './commander.js';
import { CliContext } from './context.js';
import { createTestIO, type TestIO } from '../output/io.js';
import { wireVerb } from './wire-verb.js';
import { defineVerb } from './verb.js';

// What the one wiring function gives every verb: old words kept as aliases (with a notice
// for people only) and a flag's old name filling its new key.

const seen: unknown[] = [];
const verb = defineVerb({
  name: 'delete',
  aliases: ['remove'],
  summary: 'Delete a thing',
  args: [{ name: 'thing-id', help: 'the thing' }],
  flags: [{ flags: '--timeout <duration>', help: 'bound', default: '60s', aliases: ['--wait-timeout'] }],
  examples: ['svc things delete t_1'],
  run: async () => async (_ctx: CliContext, opts: Record<string, unknown>) => void seen.push(opts),
});

async function run(argv: string[], io: TestIO): Promise<Record<string, unknown>> {
  seen.length = 0;
  const ctx = new CliContext({ io, env: {}, homedir: '/nonexistent', binPath: '' }, {});
  const group = new Command('things').exitOverride();
  wireVerb(group, ctx, verb).exitOverride();
  await group.parseAsync(argv, { from: 'user' });
  expect(seen).toHaveLength(1);
  return seen[0] as Record<string, unknown>;
}

describe('wireVerb', () => {
  it('runs the definition under its name and its alias; the alias says the new word on a terminal only', async () => {
    const tty = createTestIO({ stderrTTY: true });
    expect(await run(['delete', 't_1'], tty)).toEqual({ thingId: 't_1', timeout: '60s' });
    expect(tty.err()).toBe('');
    expect(await run(['remove', 't_1'], tty)).toEqual({ thingId: 't_1', timeout: '60s' });
    expect(tty.err()).toBe('note: `remove` is now `things delete`; the old word still works\n');
    const piped = createTestIO({ stderrTTY: false });
    await run(['remove', 't_1'], piped);
    expect(piped.err()).toBe('');
  });

  it("a flag's old name fills the new key; the new name wins when both are given", async () => {
    const io = createTestIO();
    expect(await run(['delete', 't_1', '--wait-timeout', '2m'], io)).toEqual({ thingId: 't_1', timeout: '2m' });
    expect(await run(['delete', 't_1', '--timeout', '5s', '--wait-timeout', '2m'], io)).toEqual({ thingId: 't_1', timeout: '5s' });
  });

  it("a flag's old spelling says the new one on a terminal only; a repeatable flag keeps the values of both", async () => {
    const fields = defineVerb({
      name: 'api',
      summary: 'Call',
      flags: [{ flags: '-F, --field <key=value>', help: 'a field', repeatable: true, aliases: ['-f'] }],
      examples: ['svc api -F a=1'],
      run: async () => async (_ctx: CliContext, opts: Record<string, unknown>) => void seen.push(opts),
    });
    const parse = async (argv: string[], io: TestIO) => {
      seen.length = 0;
      const group = new Command('svc').exitOverride();
      wireVerb(group, new CliContext({ io, env: {}, homedir: '/nonexistent', binPath: '' }, {}), fields).exitOverride();
      await group.parseAsync(['api', ...argv], { from: 'user' });
      return seen[0];
    };
    const tty = createTestIO({ stderrTTY: true });
    expect(await parse(['-F', 'a=1'], tty)).toEqual({ field: ['a=1'] });
    expect(tty.err()).toBe('');
    expect(await parse(['-f', 'a=1', '-F', 'b=2'], tty)).toEqual({ field: ['b=2', 'a=1'] });
    expect(tty.err()).toBe('note: -f is now -F, --field; the old spelling still works, for a while\n');
    const piped = createTestIO({ stderrTTY: false });
    expect(await parse(['-f', 'a=1'], piped)).toEqual({ field: ['a=1'] });
    expect(piped.err()).toBe('');
  });
});
