import type { Command, Option } from 'commander';
import { COMPLETER, type ValueCompleter } from '../verb.js';

// The command tree as completion needs it, written to dist/cli/completion-tree.json at build time:
// `svc __complete` reads that file instead of loading commander and every command (a TAB press
// must answer in about the time node takes to start).

/** Where a value's candidates come from: a fixed list, or a provider asked at TAB time. */
export type ValueSource = { values: string[] } | { dynamic: DynamicSource; list?: boolean };

import type { DynamicSource } from './dynamic-source.js';
export type { DynamicSource } from './dynamic-source.js';

export interface CompletionOption {
  names: string[];
  summary: string;
  /** Takes a value (`--limit <n>`); the value's candidates, when known. */
  value?: ValueSource | { free: true };
}

export interface CompletionCommand {
  name: string;
  summary: string;
  options: CompletionOption[];
  /** Positional arguments in order; `undefined` sources complete nothing. */
  args: (ValueSource | undefined)[];
  children: CompletionCommand[];
}

export interface CompletionTree extends CompletionCommand {
  version: 1;
  /** Where each id source's candidates are listed (completion/sources.ts, from api/resources). */
  lookups?: Record<string, { path: string; scoped: boolean; paged: boolean }>;
}

export interface ValueSets {
  outputFormats: readonly string[];
  eventTypes: readonly string[];
  triggerTypes: readonly string[];
  /** The groups `svc mcp --groups` may name: those with a tool (mcp/tools.ts, from the registry). */
  toolGroups: readonly string[];
}

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const SHELLS = ['bash', 'zsh', 'fish'];

/**
 * What a flag's value or an argument completes to, by where it stands in the tree. A flag with
 * commander choices completes to them; these are the values commander does not know.
 */
function optionSource(o: Option, path: string[], sets: ValueSets): CompletionOption['value'] {
  if (o.argChoices?.length) return { values: [...o.argChoices] };
  const fromRegistry = registrySource(o);
  if (fromRegistry) return fromRegistry;
  // The tool groups are the registry's own groups, which `svc mcp`'s definition cannot import.
  if (path[0] === 'mcp' && o.long === '--groups') return { values: [...sets.toolGroups], list: true };
  switch (o.long) {
    case '--output':
      return { values: [...sets.outputFormats] };
    case '--profile':
      return { dynamic: 'profiles' };
    case '--subaccount':
      return { dynamic: 'subaccounts' };
    case '--device':
      return { dynamic: 'devices' };
    case '--types':
    case '--events':
      return { values: [...sets.eventTypes], list: true } as ValueSource;
    default:
      return { free: true };
  }
}

/** What the verb's definition says its flag or argument completes to (the registry). */
function registrySource(target: object): ValueSource | undefined {
  const c = (target as { [COMPLETER]?: ValueCompleter })[COMPLETER];
  if (c === undefined) return undefined;
  return typeof c === 'string' ? { dynamic: c } : { values: [...c.values] };
}

// The groups not on the registry yet say here what their arguments complete to.
function argSource(path: string[], argName: string, sets: ValueSets): ValueSource | undefined {
  const [group, verb] = path;
  if (group === 'completion') return { values: SHELLS };
  if (group === 'api' && argName === 'method') return { values: HTTP_METHODS };
  if (group === 'trigger') return { values: [...sets.triggerTypes] };
  if (group === 'profiles' && verb !== 'add') return { dynamic: 'profiles' };
  if (group === 'subaccounts') return { dynamic: 'subaccounts' };
  if (group === 'numbers' && verb !== 'buy' && argName === 'number') return { dynamic: 'numbers' };
  if (group === 'routes' && argName === 'number') return { dynamic: 'numbers' };
  if (group === 'webhooks' && argName === 'id') return { dynamic: 'webhooks' };
  if (group === 'calls' && argName === 'id') return { dynamic: 'calls' };
  if (group === 'domains' && argName === 'domain') return { dynamic: 'domains' };
  if (group === 'emails' && argName === 'email') return { dynamic: 'emails' };
  if (group === 'suppressions' && verb === 'remove') return { dynamic: 'suppressions' };
  return undefined;
}

function commandOf(cmd: Command, path: string[], sets: ValueSets): CompletionCommand {
  const options = (cmd.options as Option[])
    .filter((o) => !o.hidden)
    .map((o) => {
      const names = [o.short, o.long].filter((n): n is string => Boolean(n));
      const takesValue = o.required || o.optional;
      return { names, summary: o.description, ...(takesValue ? { value: optionSource(o, path, sets) } : {}) };
    });
  return {
    name: cmd.name(),
    summary: cmd.description(),
    options,
    args: cmd.registeredArguments.map((a) => (a.argChoices?.length ? { values: [...a.argChoices] } : (registrySource(a) ?? argSource(path, a.name(), sets)))),
    children: cmd.commands.filter((c) => c.name() !== 'help' && !(c as unknown as { _hidden?: boolean })._hidden).map((c) => commandOf(c, [...path, c.name()], sets)),
  };
}

export function completionTree(program: Command, sets: ValueSets, lookups?: CompletionTree['lookups']): CompletionTree {
  const root = commandOf(program, [], sets);
  root.options.push({ names: ['--help'], summary: 'show help' });
  return { version: 1, ...root, ...(lookups ? { lookups } : {}) };
}
