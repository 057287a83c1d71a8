import type { CliContext } from '../../context.js';
import { printList } from '../../../output/formatters.js';
import { TRIGGERS } from './registry.js';

/** `svc trigger --list`: every type and what it stands for (a table on a terminal, rows when piped). */
export async function runListTriggers(ctx: CliContext): Promise<void> {
  const rows = Object.entries(TRIGGERS).map(([type, def]) => ({ type, description: def.description }));
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['type', 'description'], idField: 'type' });
}
