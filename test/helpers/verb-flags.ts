// Parsing one verb's flags without running it (the GitHub CLI's runF): each verb's definition takes
// a run function, so a test hands it one that records the options and sends nothing.
import { expect } from 'vitest';
import type { Command as CommandType } from 'commander';
import { Command } from '../../src/cli/commander.js';
import { CliContext } from '../../src/cli/context.js';
import { createTestIO } from '../../src/output/io.js';

export const context = () => new CliContext({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: '' }, {});

export type Factory<O> = (parent: CommandType, ctx: CliContext, runF: (opts: O) => Promise<void>) => CommandType;

function build<O>(factory: Factory<O>, seen: O[]): { parent: CommandType; verb: CommandType } {
  const parent = new Command('group').exitOverride();
  const verb = factory(parent, context(), async (opts) => void seen.push(opts));
  verb.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  return { parent, verb };
}

/** Parses `argv` through one verb built by `factory`; returns the options its run function got. */
export async function optionsOf<O>(factory: Factory<O>, argv: string[]): Promise<O> {
  const seen: O[] = [];
  const { parent, verb } = build(factory, seen);
  await parent.parseAsync([verb.name(), ...argv], { from: 'user' });
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

/** The commander error a bad argv meets (its code), with nothing run. */
export async function refusal<O>(factory: Factory<O>, argv: string[]): Promise<string> {
  const seen: O[] = [];
  const { parent, verb } = build(factory, seen);
  const err = await parent.parseAsync([verb.name(), ...argv], { from: 'user' }).then(() => undefined, (e: { code?: string }) => e);
  expect(seen).toHaveLength(0);
  return String(err?.code);
}
