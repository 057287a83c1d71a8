// Parsing one verb's flags without running it (the GitHub CLI's runF): each verb's definition takes
// a run function, so a test hands it one that records the options and sends nothing.
import { expect } from 'vitest';
import type { Command as CommandType } from 'commander';
import { Command } from '../../src/cli/commander.js';
import { CliContext } from '../../src/cli/context.js';
import { createTestIO } from '../../src/output/io.js';
import { wireVerb } from '../../src/cli/wire-verb.js';
import type { AnyVerb } from '../../src/cli/verb.js';

export const context = () => new CliContext({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: '' }, {});

export type Factory<O> = (parent: CommandType, ctx: CliContext, runF: (opts: O) => Promise<void>) => CommandType;

/** A verb of the registry, or a group's own factory not converted yet. */
export type VerbUnderTest<O> = Factory<O> | AnyVerb;

function build<O>(factory: VerbUnderTest<O>, seen: O[]): { parent: CommandType; verb: CommandType } {
  const parent = new Command('group').exitOverride();
  const runF = async (opts: O) => void seen.push(opts);
  const verb = typeof factory === 'function' ? factory(parent, context(), runF) : wireVerb(parent, context(), factory, runF);
  verb.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  return { parent, verb };
}

/** Parses `argv` through one verb built by `factory`; returns the options its run function got. */
export async function optionsOf<O>(factory: VerbUnderTest<O>, argv: string[]): Promise<O> {
  const seen: O[] = [];
  const { parent, verb } = build(factory, seen);
  await parent.parseAsync([verb.name(), ...argv], { from: 'user' });
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

/** The commander error a bad argv meets (its code), with nothing run. */
export async function refusal<O>(factory: VerbUnderTest<O>, argv: string[]): Promise<string> {
  const seen: O[] = [];
  const { parent, verb } = build(factory, seen);
  const err = await parent.parseAsync([verb.name(), ...argv], { from: 'user' }).then(() => undefined, (e: { code?: string }) => e);
  expect(seen).toHaveLength(0);
  return String(err?.code);
}

/** A group's verb by its name, from the group's registry (`verbs` of its index module). */
export function verbNamed(verbs: readonly AnyVerb[], name: string): AnyVerb {
  const verb = verbs.find((v) => v.name === name);
  if (!verb) throw new Error(`no verb ${name}`);
  return verb;
}
