import type { Command } from 'commander';
import type { CliContext, CliEnvironment } from './context.js';
import type { AnyVerb } from './verb.js';

// Two commands need the whole CLI they are part of: `svc mcp` serves every verb of the
// registry as a tool, and `svc fixtures run` checks a step's words with the CLI's own parser and runs
// it. Importing the CLI's root (main.ts, groups.ts, registry.ts) from those commands would close an
// import circle (the root loads every group, theirs included). So the root hands itself to them: main.ts
// provides the host when it loads, and these commands ask for it when they run. This module imports
// types only, from modules that import no command.

/** One verb on the registry, with where it sits in the command tree. */
export interface RegisteredVerb {
  group: string;
  /** The words after the group (`devices register`); empty for a group that is one command (`svc api`). */
  path: string[];
  verb: AnyVerb;
}

/** What main.ts lends the commands that work on the CLI itself. */
export interface CliHost {
  runCli(argv: string[], environment: CliEnvironment): Promise<number>;
  buildProgram(ctx: CliContext): Command;
  registerGroups(program: Command, ctx: CliContext, load: 'all' | string | undefined): Promise<void>;
  commandWord(argv: string[]): string | undefined;
  /** Prints an error as the CLI does and answers its exit code. */
  reportError(err: unknown, ctx: CliContext): number;
  /** Whether `name` is a command group. */
  isGroup(name: string): boolean;
  /** Every registered verb, in the groups' order; `pending` lists groups not on the registry. */
  loadRegistry(): Promise<{ verbs: RegisteredVerb[]; pending: string[] }>;
}

let provided: CliHost | undefined;

/** Called once by main.ts as it loads. */
export function provideCliHost(host: CliHost): void {
  provided = host;
}

/** The CLI, for a command that works on it; main.ts has provided it before any command runs. */
export function cliHost(): CliHost {
  if (!provided) throw new Error('the CLI host is provided by main.ts, which runs every command: call through runCli');
  return provided;
}
