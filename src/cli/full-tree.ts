import type { Command } from 'commander';
import { buildProgram, registerGroups } from './main.js';
import { CliContext, type CliEnvironment } from './context.js';

/** The whole command tree, every group loaded: for completions and man pages. */
export async function fullCommandTree(environment: CliEnvironment): Promise<Command> {
  const ctx = new CliContext(environment, {});
  const program = buildProgram(ctx);
  await registerGroups(program, ctx, 'all');
  return program;
}
