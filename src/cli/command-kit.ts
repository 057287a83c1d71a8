import type { Command, Option as OptionType } from 'commander';
import { Option } from './commander.js';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';

// The cheap half of the commands' shared pieces: flag definitions and flag parsing, loaded with every
// group at start-up, so nothing here may import zod, undici or the output layer. What runs a verb
// (printing, listing) is in print-resource.ts and run-list.ts, imported by run modules only.

/**
 * What a verb does once its flags are turned into options. A command factory takes one optionally,
 * so a test can parse argv and look at the options without running anything (the GitHub CLI's runF).
 */
export type RunF<O> = (opts: O) => Promise<void>;

export interface ListFlags {
  limit?: string;
  all?: boolean;
  cursor?: string;
}

export function addListOptions(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'rows in one page (1-100)')
    .option('--all', 'follow every page, streaming rows as they arrive')
    .option('--cursor <cursor>', 'start from this page cursor (printed on stderr after a page)');
}

export function parseLimit(raw: string | undefined, max = 100): number | undefined {
  if (raw === undefined) return undefined;
  // Plain decimal digits only: Number() would also take `1e1`, `0x10`, ` 5` and `+5`.
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}`, '--limit');
  return n;
}

/** A notice for people: stderr, so stdout stays data. */
export function notice(ctx: CliContext, text: string): void {
  ctx.io.stderr.write(`${text}\n`);
}

export const enumOption = (flags: string, description: string, choices: readonly string[]): OptionType => new Option(flags, description).choices(choices);
