import type { RegisteredVerb } from '../../host.js';
import { longFlag, optionKey, takesValue, type AnyVerb } from '../../verb.js';

// The tools `svc mcp` serves, read from the registry: pure data, so a test can look at them without
// a server. Each input field is an argument or a flag, keyed as the verb's run function keys it.

export interface ToolField {
  key: string;
  /** The flag or argument it stands for (`--limit`, `<id>`), for messages. */
  source: string;
  description: string;
  type: 'string' | 'boolean' | 'integer' | 'number' | 'strings';
  choices?: readonly string[];
  required: boolean;
  /**
   * The text of a file the verb would read by path (`html` for `--html-file`): the verb gets `-` for
   * the path and this text as its standard input.
   */
  contentOf?: string;
  /** The file is one of a variadic argument's (`calls test <file...>`): the verb gets `['-']`. */
  contentList?: boolean;
}

export interface ToolSpec {
  name: string;
  description: string;
  fields: ToolField[];
  /** Writes something: MCP's destructiveHint, and left out under --read-only. */
  changes: boolean;
  entry: RegisteredVerb;
}

/**
 * The characters a tool's name may use, and how long it may be: several model APIs accept only
 * these in a function's name (a dot among them is refused), at most 64 of them.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `blocked-numbers list` → `blocked-numbers_list`; a group that is one command is its own name. The
 * words join with `_`, and any other character a name may not hold becomes `-`: the dots of an event
 * type (`trigger billing.wallet.low_balance` → `trigger_billing-wallet-low_balance`).
 */
export const toolName = (r: RegisteredVerb): string => [r.group, ...r.path].map((word) => word.replace(/[^A-Za-z0-9_-]/g, '-')).join('_');

/**
 * A verb an agent can call: one that needs no terminal (`svc mcp` itself, editors, live streams),
 * acts through the API rather than on this machine (`local`), and needs no path it cannot be given
 * (`numbers greeting <file>`: audio, which a tool's text cannot carry).
 */
export const servable = (v: AnyVerb): boolean =>
  !v.terminal &&
  !v.local &&
  !(v.args ?? []).some((a) => a.local && !a.local.content && !a.optional) &&
  !(v.flags ?? []).some((f) => f.local && !f.local.content && f.required);

/**
 * `--no-emergency` beside `--emergency`: one boolean field (true, false, or left out), with no
 * default, as commander keys the pair (`numbers update`).
 */
function pairedNegation(v: AnyVerb, flags: string): boolean {
  const negated = /--no-([a-z0-9-]+)/i.exec(flags)?.[1];
  return negated !== undefined && (v.flags ?? []).some((f) => new RegExp(`--${negated}(?![a-z0-9-])`).test(f.flags) && !/--no-/.test(f.flags));
}

/**
 * The tool's input fields. A path on this machine is never one (contract of `svc mcp`: the agent
 * acts through the API only): a flag or argument marked `local` is left out, or stands as the
 * file's text under its `content` key. A flag that never lets the verb end (`terminal`) is left out. A verb reads one standard input, so one such field at most.
 */
export function fieldsOf(v: AnyVerb): ToolField[] {
  const fields: ToolField[] = [];
  const content = (key: string, source: string, contentOf: string, required: boolean, list = false): ToolField => ({
    key,
    source,
    description: `the text the file of ${source} would hold (given here as text; no file is read)`,
    type: 'string',
    required,
    contentOf,
    ...(list ? { contentList: true } : {}),
  });
  for (const a of v.args ?? []) {
    if (a.local) {
      if (a.local.content) fields.push(content(a.local.content, `<${a.name}>`, optionKey(a.name), !a.optional, a.variadic));
      continue;
    }
    fields.push({ key: optionKey(a.name), source: `<${a.name}>`, description: a.help, type: a.variadic ? 'strings' : 'string', choices: a.choices, required: !a.optional });
  }
  for (const f of v.flags ?? []) {
    if (f.hidden || f.terminal || pairedNegation(v, f.flags)) continue;
    const source = longFlag(f.flags);
    if (f.local) {
      if (f.local.content) fields.push(content(f.local.content, source, optionKey(f.flags), Boolean(f.required)));
      continue;
    }
    const type = !takesValue(f.flags) ? 'boolean' : f.repeatable ? 'strings' : (f.json ?? 'string');
    fields.push({ key: optionKey(f.flags), source, description: f.help, type, choices: f.choices, required: Boolean(f.required) });
  }
  if (fields.filter((f) => f.contentOf).length > 1) throw new Error(`${v.name}: more than one field stands for a file's text; a verb reads one standard input`);
  if (new Set(fields.map((f) => f.key)).size !== fields.length) throw new Error(`${v.name}: two tool fields share a key`);
  return fields;
}

/** What narrows the tools served: `--read-only`, and `--groups` (undefined: every group). */
export interface ToolFilter {
  readOnly: boolean;
  groups?: readonly string[];
}

/** The groups `--groups` may name: those with at least one tool, in the registry's order. */
export const toolGroups = (verbs: readonly RegisteredVerb[]): string[] => [...new Set(verbs.filter((r) => servable(r.verb)).map((r) => r.group))];

export function toolSpecs(verbs: readonly RegisteredVerb[], opts: ToolFilter): ToolSpec[] {
  const specs = verbs
    .filter((r) => servable(r.verb) && !(opts.readOnly && r.verb.changes) && (!opts.groups || opts.groups.includes(r.group)))
    .map((r) => ({
      name: toolName(r),
      description: `${r.verb.summary}. CLI: svc ${[r.group, ...r.path].join(' ')}${r.verb.examples[0] ? `; e.g. ${r.verb.examples[0]}` : ''}`,
      fields: fieldsOf(r.verb),
      changes: Boolean(r.verb.changes),
      entry: r,
    }));
  // A name an API would refuse, or two verbs under one name, is a mistake in the registry: fail at
  // once rather than serve a tool that cannot be called.
  const seen = new Set<string>();
  for (const { name } of specs) {
    if (!TOOL_NAME_PATTERN.test(name)) throw new Error(`svc mcp: tool name ${name} is not ${TOOL_NAME_PATTERN}`);
    if (seen.has(name)) throw new Error(`svc mcp: two verbs are the tool ${name}`);
    seen.add(name);
  }
  return specs;
}

/**
 * The options object the run function gets, from a tool call's (validated) arguments: values as a
 * shell would give them (numbers as text), a switch left out when false.
 */
export function optionsOfCall(spec: ToolSpec, args: Record<string, unknown>): Record<string, unknown> {
  const opts: Record<string, unknown> = {};
  for (const f of spec.fields) {
    const value = args[f.key];
    if (value === undefined) continue;
    // The file's text arrives as standard input (`stdinOfCall`); the verb reads `-`.
    if (f.contentOf) opts[f.contentOf] = f.contentList ? ['-'] : '-';
    else opts[f.key] = f.type === 'integer' || f.type === 'number' ? String(value) : value;
  }
  // Defaults commander would have filled in.
  for (const fl of spec.entry.verb.flags ?? []) {
    const key = optionKey(fl.flags);
    if (opts[key] === undefined && fl.default !== undefined) opts[key] = fl.default;
    if (opts[key] === undefined && /--no-/.test(fl.flags) && !pairedNegation(spec.entry.verb, fl.flags)) opts[key] = true;
  }
  return opts;
}

/** The standard input a call gives its verb: the text of its content field, if any was given. */
export function stdinOfCall(spec: ToolSpec, args: Record<string, unknown>): string | undefined {
  const field = spec.fields.find((f) => f.contentOf && args[f.key] !== undefined);
  return field ? String(args[field.key]) : undefined;
}
