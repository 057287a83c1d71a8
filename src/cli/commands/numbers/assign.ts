import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { NUMBER_COLUMNS } from './columns.js';

export interface AssignOptions {
  number: string;
  campaign?: string;
  detach: boolean;
}

export function assignCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('assign')
    .description('Attach a local number to an approved 10DLC campaign (status live), or detach it (idle)')
    .argument('<number>', 'number id (num_…) or E.164')
    .option('--campaign <id>', 'the approved campaign to attach the number to')
    .option('--detach', 'detach the number from its campaign')
    .addHelpText(
      'after',
      `
A campaign that is not approved: exit 5. Toll-free numbers are verified instead
(svc numbers verify-tollfree): exit 8.

Examples:
  $ svc numbers assign +14155550123 --campaign 7d0c2f0e-…
  $ svc numbers assign +14155550123 --detach`,
    )
    .action(async (number: string, o: { campaign?: string; detach?: boolean }) => runAssign(ctx, { number, campaign: o.campaign, detach: Boolean(o.detach) }));
}

export async function runAssign(ctx: CliContext, opts: AssignOptions): Promise<void> {
  if (opts.campaign !== undefined && opts.detach) throw new UsageError('give --campaign or --detach, not both', '--detach');
  if (opts.campaign === undefined && !opts.detach) throw new UsageError('give --campaign ID to attach, or --detach', '--campaign');
  if (opts.campaign !== undefined && opts.campaign.trim() === '') throw new UsageError('--campaign: empty campaign id', '--campaign');
  const { numberRef } = await import('../../phone-numbers.js');
  const { assignNumber } = await import('../../../api/resources/numbers.js');
  const number = await assignNumber(await ctx.client(), numberRef(opts.number), opts.detach ? null : opts.campaign!.trim());
  await printOne(ctx, number, NUMBER_COLUMNS);
}
