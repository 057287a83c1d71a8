import type { CliContext } from './context.js';
import { printResource } from '../output/formatters.js';

/** One resource in the chosen format (a key/value table on a terminal). */
export async function printOne(ctx: CliContext, resource: object, columns?: string[]): Promise<void> {
  await printResource(ctx.io, resource, { format: ctx.outputFormat, columns, now: ctx.serviceNow() });
}
