import type { Command, Option as OptionType } from 'commander';
import { Argument, Option } from './commander.js';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';
import { addGroupExamples } from './help-examples.js';
import { COMPLETER, longFlag, optionKey, type AnyVerb, type ArgDef, type FlagDef, type RunFunction, type ValueCompleter } from './verb.js';

// The ONE function that turns a verb's definition into a commander command. Options reach
// the run function keyed as commander keys them (camelCase of the long flag), each argument under
// the camelCase of its name, so `svc mcp` can build the same object from a tool call.

/** A test's stand-in for the run function: gets the options, runs nothing (the GitHub CLI's runF). */
export type RunF<O> = (opts: O) => Promise<void>;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function optionFor(f: FlagDef, flags = f.flags, hidden = f.hidden): OptionType {
  const option = new Option(flags, f.help);
  if (f.choices) option.choices(f.choices);
  if (f.repeatable) {
    // choices() alone does not collect; check each value here instead.
    const flag = longFlag(f.flags);
    option.argParser((value: string, previous: string[] | undefined) => {
      if (f.choices && !f.choices.includes(value)) throw new UsageError(`${flag}: "${value}" is not one of ${f.choices.join(', ')}`, flag);
      return collect(value, previous);
    });
  }
  if (f.default !== undefined) option.default(f.default);
  if (f.required) option.makeOptionMandatory();
  if (hidden) option.hideHelp();
  if (f.complete) withCompleter(option, f.complete);
  return option;
}

function argumentFor(a: ArgDef) {
  const name = `${a.name}${a.variadic ? '...' : ''}`;
  const arg = new Argument(a.optional ? `[${name}]` : `<${name}>`, a.help);
  if (a.choices) arg.choices(a.choices);
  if (a.complete) withCompleter(arg, a.complete);
  return arg;
}

/** Completion reads a flag's or argument's completer from the registry through its commander object. */
const withCompleter = (target: object, complete: ValueCompleter): void => void ((target as { [COMPLETER]?: ValueCompleter })[COMPLETER] = complete);

/** The options object a verb's run function gets, from a parsed command. */
export function optionsFrom(def: AnyVerb, cmd: Command): Record<string, unknown> {
  const opts: Record<string, unknown> = { ...cmd.opts() };
  for (const f of def.flags ?? []) {
    // An old spelling (`--wait-timeout`, `svc api -f`) fills the flag's own key; a repeatable flag
    // given under both spellings keeps every value.
    for (const alias of f.aliases ?? []) {
      const key = optionKey(alias);
      const own = optionKey(f.flags);
      const ownGiven = opts[own] !== undefined && cmd.getOptionValueSource(own) !== 'default';
      if (opts[key] !== undefined && f.repeatable && ownGiven) opts[own] = [...(opts[own] as unknown[]), ...(opts[key] as unknown[])];
      else if (opts[key] !== undefined && !ownGiven) opts[own] = opts[key];
      delete opts[key];
    }
  }
  (def.args ?? []).forEach((a, i) => {
    const value = cmd.processedArgs[i];
    if (value !== undefined) opts[optionKey(a.name)] = value;
  });
  return opts;
}

/**
 * Adds `def` under `parent`; `runF` replaces its run function (tests parse flags without running).
 * The group's default verb runs when the group is given without one (`svc clock` shows the clock).
 */
export function wireVerb<O>(parent: Command, ctx: CliContext, def: AnyVerb, runF?: RunF<O>, isDefault = false): Command {
  const cmd = parent.command(verbWord(def), { isDefault });
  for (const alias of def.aliases ?? []) cmd.alias(alias);
  return configureVerb(cmd, ctx, def, runF);
}

/** Makes `cmd` the verb `def`: a group's own verb (`svc mcp`, `svc api`) is configured in place. */
export function configureVerb<O>(cmd: Command, ctx: CliContext, def: AnyVerb, runF?: RunF<O>): Command {
  cmd.description(def.summary);
  for (const a of def.args ?? []) cmd.addArgument(argumentFor(a));
  for (const f of def.flags ?? []) {
    cmd.addOption(optionFor(f));
    for (const alias of f.aliases ?? []) cmd.addOption(optionFor({ ...f, required: false, default: undefined }, f.flags.replace(/--[a-z0-9-]+/i, alias).replace(/^-\w, /, ''), true));
  }
  const examples = def.examples.map((e) => `  $ ${e}`).join('\n');
  cmd.addHelpText('after', `${def.details ? `\n${def.details}\n` : ''}\nExamples:\n${examples}`);
  cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const opts = optionsFrom(def, self);
    if (self.parent) aliasNotice(ctx, self.parent, def);
    flagAliasNotice(ctx, self, def);
    if (runF) return runF(opts as O);
    const run = (await def.run()) as RunFunction<Record<string, unknown>>;
    return run(ctx, opts);
  });
  return cmd;
}

/** The verb's own word: the last of its name (`devices register` → `register`). */
const verbWord = (def: AnyVerb): string => def.name.split(' ').pop()!;

/**
 * Registers a group's verbs, in order. A name of several words (`devices register`) puts the verb
 * under a sub-group, made on its first verb with its summary from `subgroups`.
 */
export function registerVerbs(group: Command, ctx: CliContext, verbs: readonly AnyVerb[], subgroups: Readonly<Record<string, string>> = {}, defaultVerb?: string): void {
  const made: Command[] = [];
  for (const def of verbs) {
    let parent = group;
    for (const word of def.name.split(' ').slice(0, -1)) {
      let sub = parent.commands.find((c) => c.name() === word);
      if (!sub) {
        sub = parent.command(word).description(subgroups[word] ?? '');
        made.push(sub);
      }
      parent = sub;
    }
    wireVerb(parent, ctx, def, undefined, def.name === defaultVerb);
  }
  if (defaultVerb !== undefined) refuseUnknownWords(group, defaultVerb);
  for (const sub of made) addGroupExamples(sub);
}

/**
 * A group with a default verb hands it every word that names no verb (`svc clock shw` would be
 * "too many arguments for 'show'"): a word that is not the default verb's own is an unknown command,
 * with commander's own message and suggestion, as in a group without one.
 */
function refuseUnknownWords(group: Command, defaultVerb: string): void {
  group.hook('preSubcommand', (self, sub) => {
    const first = self.args[0];
    if (sub.name() !== defaultVerb || first === undefined || first.startsWith('-') || first === defaultVerb) return;
    (self as unknown as { unknownCommand(): never }).unknownCommand();
  });
}

/**
 * `svc api -f` (now `-F`) and `--wait-timeout` (now `--timeout`) still work, and say once, on a
 * terminal's stderr only, what the flag is called now (as an old verb word does).
 */
function flagAliasNotice(ctx: CliContext, cmd: Command, def: AnyVerb): void {
  if (!ctx.io.stderrTTY) return;
  for (const f of def.flags ?? []) {
    for (const alias of f.aliases ?? []) {
      if (cmd.getOptionValueSource(optionKey(alias)) !== 'cli') continue;
      const now = f.flags.replace(/\s*[<[].*$/, '');
      ctx.io.stderr.write(`note: ${alias} is now ${now}; the old spelling still works, for a while\n`);
    }
  }
}

/**
 * `svc webhooks remove` still works, and says once, on a terminal only, that the word is now
 * `delete` (stderr: a script reading stdout is not disturbed, and a pipe hears nothing).
 */
function aliasNotice(ctx: CliContext, parent: Command, def: AnyVerb): void {
  if (!def.aliases?.length || !ctx.io.stderrTTY) return;
  // commander sets the group's args (the verb's word first) before it hands over to the verb.
  const used = parent.args[0];
  if (used !== undefined && def.aliases.includes(used)) ctx.io.stderr.write(`note: \`${used}\` is now \`${parent.name()} ${def.name}\`; the old word still works\n`);
}
