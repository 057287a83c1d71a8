import type { CliContext } from '../../context.js';

// The shape of one `svc trigger <event-type>`: its flags, help and what it does. Kept apart from the
// registry so a definition can import this without importing the registry that imports it.

export interface TriggerOption {
  /** commander flags, e.g. `--to <e164>`. */
  flags: string;
  description: string;
  /** Missing → exit 2 naming the flag (checked by commander). */
  required?: boolean;
  /** Allowed values (shown in --help, checked by commander). */
  choices?: readonly string[];
  /** May be given more than once; the value is then an array. */
  repeatable?: boolean;
  default?: string;
}

export interface TriggerDefinition<O = Record<string, unknown>> {
  /** One line, for `svc trigger --list` and the subcommand's help. */
  description: string;
  options: readonly TriggerOption[];
  /** At least one, each a full `svc trigger …` command line. */
  examples: readonly string[];
  /** More help text, shown before the examples. */
  details?: string;
  run(ctx: CliContext, opts: O): Promise<void>;
}

/** A definition, typed by its own options. */
export const defineTrigger = <O>(def: TriggerDefinition<O>): TriggerDefinition<O> => def;
