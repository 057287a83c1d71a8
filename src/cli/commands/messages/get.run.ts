import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { getMessage } from '../../../api/resources/messages.js';
import { MESSAGE_COLUMNS } from './columns.js';
import type { GetMessageOptions } from './get.js';

export async function runGet(ctx: CliContext, opts: GetMessageOptions): Promise<void> {
  await printOne(ctx, await getMessage(await ctx.client(), opts.id), MESSAGE_COLUMNS);
}
