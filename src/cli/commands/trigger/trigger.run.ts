import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printList } from '../../../output/formatters.js';
import { TRIGGER_VERBS } from './registry.js';

export interface TriggerOptions {
  /** A word that is no trigger type (a type's own verb runs instead of this one). */
  eventType?: string;
  list?: boolean;
}

/** `svc trigger --list`: every type and what it stands for (a table on a terminal, rows when piped). */
export async function runTrigger(ctx: CliContext, opts: TriggerOptions): Promise<void> {
  const types = TRIGGER_VERBS.map((v) => v.name);
  if (opts.eventType !== undefined) throw new UsageError(`unknown trigger type "${opts.eventType}"; known: ${types.join(', ')} (svc trigger --list)`, '<event-type>');
  if (!opts.list) throw new UsageError('give an event type to cause (svc trigger --list lists them)', '<event-type>');
  const rows = TRIGGER_VERBS.map((v) => ({ type: v.name, description: v.summary }));
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['type', 'description'], idField: 'type' });
}
