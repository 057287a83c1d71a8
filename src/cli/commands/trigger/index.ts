import type { Command, Option as OptionType } from 'commander';
import { Option } from '../../commander.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { TRIGGERS, type TriggerDefinition, type TriggerOption } from './registry.js';

export function register(group: Command, ctx: CliContext): void {
  group
    .argument('[event-type]', 'the event to cause (svc trigger --list)')
    .option('--list', 'list every trigger type with a one-line description')
    .addHelpText(
      'after',
      `
Sandbox only: makes the outside world act on the local service (a consumer's text, a carrier's
verdict, …), with the same effects and events as the real thing. Each type has its own flags:
svc trigger <event-type> --help.

Examples:
  $ svc trigger --list
  $ svc trigger message.received --to +14155550100 --from +14155550123 --body "hi"
  $ svc trigger call.missed --to +14155550100 --from +14155550123`,
    )
    .action(async (eventType: string | undefined, o: { list?: boolean }) => {
      if (eventType !== undefined) {
        throw new UsageError(`unknown trigger type "${eventType}"; known: ${Object.keys(TRIGGERS).join(', ')} (svc trigger --list)`, '<event-type>');
      }
      if (!o.list) {
        group.outputHelp();
        return;
      }
      await (await import('./list.run.js')).runListTriggers(ctx);
    });

  for (const [type, def] of Object.entries(TRIGGERS)) addTrigger(group, ctx, type, def as TriggerDefinition<unknown>);
}

function addTrigger(group: Command, ctx: CliContext, type: string, def: TriggerDefinition<unknown>): void {
  const cmd = group.command(type).description(def.description);
  for (const o of def.options) cmd.addOption(optionFor(o));
  const examples = def.examples.map((e) => `  $ ${e}`).join('\n');
  cmd.addHelpText('after', `${def.details ? `\n${def.details}\n` : ''}\nExamples:\n${examples}`);
  cmd.action(async (opts: unknown) => def.run(ctx, opts));
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function optionFor(o: TriggerOption): OptionType {
  const option = new Option(o.flags, o.description);
  if (o.choices) option.choices(o.choices);
  if (o.repeatable) {
    // choices() alone does not collect; check each value here instead.
    const flag = option.long ?? o.flags;
    option.argParser((value: string, previous: string[] | undefined) => {
      if (o.choices && !o.choices.includes(value)) throw new UsageError(`${flag}: "${value}" is not one of ${o.choices.join(', ')}`, flag);
      return collect(value, previous);
    });
  }
  if (o.default !== undefined) option.default(o.default);
  if (o.required) option.makeOptionMandatory();
  return option;
}
