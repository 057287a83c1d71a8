import type { CompletionCommand, CompletionOption, CompletionTree, DynamicSource, ValueSource } from './tree.js';

// `svc __complete`: what may come next at the cursor, from the command tree. Pure: the dynamic
// values (profiles, ids) come through `lookup`, so every rule here is tested without a shell.

export interface Candidate {
  value: string;
  description?: string;
}

/** What the words typed so far say about the settings a dynamic lookup must use. */
export interface TypedSettings {
  profile?: string;
  baseUrl?: string;
  subaccount?: string;
}

export type Lookup = (source: DynamicSource, settings: TypedSettings) => Promise<Candidate[]>;

interface Position {
  /** The deepest command named so far. */
  command: CompletionCommand;
  /** The commands from the root down to `command`: their options are all accepted here. */
  chain: CompletionCommand[];
  /** Positional arguments given to `command`. */
  positionals: number;
  /** The option whose value the next word is. */
  pendingValue?: CompletionOption;
  afterDoubleDash: boolean;
  settings: TypedSettings;
}

const SETTING_OF: Record<string, keyof TypedSettings> = { '--profile': 'profile', '--base-url': 'baseUrl', '--subaccount': 'subaccount' };

function findOption(chain: CompletionCommand[], name: string): CompletionOption | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const found = chain[i]!.options.find((o) => o.names.includes(name));
    if (found) return found;
  }
  return undefined;
}

function remember(pos: Position, option: CompletionOption, value: string): void {
  const long = option.names.find((n) => n.startsWith('--'));
  const key = long ? SETTING_OF[long] : undefined;
  if (key) pos.settings[key] = value;
}

/**
 * Walks the finished words. Global options are accepted anywhere (`svc -o json messages list`), a
 * flag's value is skipped whatever it looks like, and `--flag=value` is one word or, as bash splits
 * it, three (`--flag`, `=`, `value`).
 */
function walk(tree: CompletionTree, words: string[]): Position {
  const pos: Position = { command: tree, chain: [tree], positionals: 0, afterDoubleDash: false, settings: {} };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (pos.pendingValue) {
      if (word === '=') continue; // bash: `--output`, `=`, `json`
      remember(pos, pos.pendingValue, word);
      pos.pendingValue = undefined;
      continue;
    }
    if (!pos.afterDoubleDash && word === '--') {
      pos.afterDoubleDash = true;
      continue;
    }
    if (!pos.afterDoubleDash && word.startsWith('-') && word !== '-') {
      const eq = word.indexOf('=');
      const name = eq > 0 ? word.slice(0, eq) : word;
      const option = findOption(pos.chain, name);
      if (option?.value && eq > 0) remember(pos, option, word.slice(eq + 1));
      else if (option?.value) pos.pendingValue = option;
      continue;
    }
    const child = pos.positionals === 0 ? pos.command.children.find((c) => c.name === word) : undefined;
    if (child) {
      pos.command = child;
      pos.chain.push(child);
    } else {
      pos.positionals++;
    }
  }
  return pos;
}

async function valuesOf(source: ValueSource | CompletionOption['value'] | undefined, current: string, pos: Position, lookup: Lookup): Promise<Candidate[]> {
  if (!source || 'free' in source) return [];
  const candidates = 'values' in source ? source.values.map((value) => ({ value })) : await lookup(source.dynamic, pos.settings);
  // A comma-separated list (`--events a,b`): complete its last item, keeping what came before.
  if ('list' in source && source.list) {
    const comma = current.lastIndexOf(',');
    const head = current.slice(0, comma + 1);
    const given = new Set(head.split(',').filter(Boolean));
    return candidates.filter((c) => !given.has(c.value)).map((c) => ({ ...c, value: head + c.value }));
  }
  return candidates;
}

function optionCandidates(pos: Position): Candidate[] {
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const command of [...pos.chain].reverse()) {
    for (const option of command.options) {
      const long = option.names.find((n) => n.startsWith('--'));
      if (!long || seen.has(long)) continue;
      seen.add(long);
      out.push({ value: long, description: option.summary });
    }
  }
  return out;
}

/**
 * The candidates for the word at the cursor. `words` are the words after `svc`, the last being the
 * (possibly empty) word being completed. Candidates are not filtered by the typed prefix except
 * where the shell cannot do it (a `--flag=` prefix, list items): each shell filters as it likes.
 */
export async function complete(tree: CompletionTree, words: string[], lookup: Lookup): Promise<Candidate[]> {
  const current = words.length ? words[words.length - 1]! : '';
  const pos = walk(tree, words.slice(0, -1));
  if (pos.pendingValue) return valuesOf(pos.pendingValue.value, current, pos, lookup);
  if (!pos.afterDoubleDash && current.startsWith('-')) {
    const eq = current.indexOf('=');
    if (eq > 0) {
      const option = findOption(pos.chain, current.slice(0, eq));
      const prefix = current.slice(0, eq + 1);
      const values = await valuesOf(option?.value, current.slice(eq + 1), pos, lookup);
      return values.map((c) => ({ ...c, value: prefix + c.value }));
    }
    return optionCandidates(pos);
  }
  if (pos.command.children.length && pos.positionals === 0) {
    const children = pos.command.children.map((c) => ({ value: c.name, description: c.summary }));
    return pos.command === tree ? [...children, { value: 'help', description: 'show help for a command' }] : children;
  }
  return valuesOf(pos.command.args[pos.positionals], current, pos, lookup);
}

/** One line per candidate in the form each shell's script reads. */
export function formatCandidates(shell: string, candidates: Candidate[]): string {
  const line = (c: Candidate): string => {
    const description = (c.description ?? '').replace(/[\t\n]+/g, ' ');
    if (shell === 'fish') return description ? `${c.value}\t${description}` : c.value;
    // zsh's _describe reads `value:description`; a colon inside the value is escaped.
    if (shell === 'zsh') return description ? `${c.value.replace(/:/g, '\\:')}:${description}` : c.value.replace(/:/g, '\\:');
    return c.value;
  };
  return candidates.map((c) => `${line(c)}\n`).join('');
}
