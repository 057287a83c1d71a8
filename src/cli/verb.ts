import type { CliContext } from './context.js';
import type { DynamicSource } from './completion/dynamic-source.js';
import type { EndpointRef } from '../api/resources/endpoint.js';

// The ONE shape of a verb. A definition is data (what commander, completion, the man
// pages, docs and `svc mcp` read) plus a run function imported only when the verb runs, so a group
// loads its definitions and nothing they do. A run module never imports its definition: what both
// need (columns, field lists) lives in a module both import.
//
// Nothing here is imported at run time by anything heavy: types only, and `defineVerb` is identity.

/** Where a value's candidates come from at TAB time (and the `enum` of `svc mcp`'s schema). */
export type ValueCompleter = DynamicSource | { values: readonly string[] };

export interface FlagDef {
  /** commander's syntax: `-O, --out <file>`, `--all`, `--no-wait`. */
  flags: string;
  help: string;
  /** Allowed values: shown in --help, checked by commander, the schema's `enum`. */
  choices?: readonly string[];
  default?: string | boolean;
  /** Missing → exit 2 naming the flag. */
  required?: boolean;
  /** May be given more than once; the value is then an array. */
  repeatable?: boolean;
  /** Candidates at TAB time (ids from the local service, profile names). */
  complete?: ValueCompleter;
  /** Internal (a detached child's marker): not in help, completion, docs or `svc mcp`. */
  hidden?: boolean;
  /** An old spelling kept working (`--wait-timeout` for `--timeout`): same value, hidden from help. */
  aliases?: readonly string[];
  /** The JSON type `svc mcp` asks for; the run function still gets the text a shell would give. */
  json?: 'integer' | 'number';
  /** Names a file on this machine, or state kept on it (`--resume`): see {@link LocalInput}. */
  local?: LocalInput;
  /**
   * The flag makes the verb run until Ctrl-C (`--follow`): not a field of its `svc mcp` tool, which
   * must end (the verb without it still is a tool).
   */
  terminal?: boolean;
}

/**
 * A flag or argument that reaches this machine rather than the API: a path read or written, or
 * answers saved beside the config. `svc mcp` acts only through the API, so its tools never take
 * one: the field is left out, or, with `content`, the tool takes the file's text under that key
 * instead and the verb reads it as standard input (`-`). A verb with such an argument required and
 * no content to stand for it is no tool.
 */
export interface LocalInput {
  /** The tool's field carrying the text the file would hold (`html` for `--html-file`). */
  content?: string;
}

export interface ArgDef {
  /** kebab-case; the run function's options key is its camelCase (`phone-number` → `phoneNumber`). */
  name: string;
  help: string;
  optional?: boolean;
  variadic?: boolean;
  choices?: readonly string[];
  complete?: ValueCompleter;
  /** A path on this machine (`<file>`): see {@link LocalInput}. */
  local?: LocalInput;
}

/** What a verb does with its parsed options. */
export type RunFunction<O> = (ctx: CliContext, opts: O) => Promise<void>;

export interface VerbDefinition<O = never> {
  name: string;
  /** Old words that keep working (`remove` for `delete`); using one prints a notice on a terminal. */
  aliases?: readonly string[];
  /** One line: the verb's description in lists, help, man pages and `svc mcp`. */
  summary: string;
  args?: readonly ArgDef[];
  flags?: readonly FlagDef[];
  /** At least one, each a full `svc …` command line without the `$ `. */
  examples: readonly string[];
  /** More help, shown before the examples. */
  details?: string;
  /** Asks questions on a terminal when a value is missing (a usage error with --no-input). */
  prompts?: boolean;
  /** Writes something (the service's data, a file, a profile): `svc mcp` marks it destructive. */
  changes?: boolean;
  /** Needs a person at a terminal or never ends (an editor, a live stream): not an MCP tool. */
  terminal?: boolean;
  /**
   * Acts on this machine rather than through the API with the profile's key: the profiles and
   * contexts on disk, the local service's process or data directory, a scenario file whose steps
   * may name local files, a shell script. Not an MCP tool: an agent acts through the API alone,
   * with the one credential `svc mcp` was started with.
   */
  local?: boolean;
  /** The endpoint it calls, from `src/api/resources` (docs, the fixtures checker). */
  api?: EndpointRef;
  /** Loaded by one `import()` when the verb runs. */
  run: () => Promise<RunFunction<O>>;
}

/** Any verb, whatever its options: what the registry holds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyVerb = VerbDefinition<any>;

/** The property of a commander option or argument that carries its registry completer (completion/tree.ts). */
export const COMPLETER = 'svcCompleter';

/** A definition, its options typed by its run function. */
export const defineVerb = <O>(def: VerbDefinition<O>): VerbDefinition<O> => def;

/** `--out <file>` → `out`, `--no-wait` → `wait`, `phone-number` → `phoneNumber`: commander's keys. */
export function optionKey(flagsOrName: string): string {
  const long = /--([a-z0-9-]+)/i.exec(flagsOrName)?.[1] ?? flagsOrName.replace(/^-/, '');
  const bare = long.startsWith('no-') ? long.slice(3) : long;
  return bare.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The long name of a flag (`--out`), as help and errors spell it. */
export const longFlag = (flags: string): string => /--[a-z0-9-]+/i.exec(flags)?.[0] ?? flags;

/** Takes a value (`--limit <n>`) rather than being a switch (`--all`). */
export const takesValue = (flags: string): boolean => /[<[]/.test(flags);

/**
 * A run function fed through a conversion of its flags (dollars to cents, a field list to an API
 * body): the definition keeps the flags as a shell gives them, the run module its typed options.
 */
export const runConverted =
  <F, O>(load: () => Promise<RunFunction<O>>, convert: (flags: F) => O) =>
  async (): Promise<RunFunction<F>> => {
    const run = await load();
    return (ctx, flags) => run(ctx, convert(flags));
  };
