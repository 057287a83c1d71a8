import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { parseDuration } from '../../duration.js';
import { UsageError } from '../../errors.js';

const verbs = () => import('./clock.run.js');

export function register(group: Command, ctx: CliContext): void {
  group
    .command('show')
    .description("Show the local service's clock")
    .addHelpText('after', '\nExamples:\n  $ svc clock show')
    .action(async () => (await verbs()).runShow(ctx));

  group
    .command('advance')
    .description('Move the sandbox clock forward; everything that falls due runs, in time order, and is listed')
    .argument('<duration>', 'e.g. 30s, 10m, 6h, 7d')
    .addHelpText(
      'after',
      '\nThe move is permanent for this data directory: service time never goes back, not even across a\nrestart (a new data directory, or `svc server reset` when it lands, starts over). On a terminal it\nsays what ran (carrier reports, decisions, webhook delivery attempts); -o json gives the same.\n\nExamples:\n  $ svc clock advance 30s\n  $ svc clock advance 3d   # carrier decisions, webhook retries, expiries',
    )
    .action(async (duration: string) => {
      const seconds = parseDuration(duration, '<duration>');
      if (seconds < 1) throw new UsageError('the duration must be at least 1s', '<duration>');
      await (await verbs()).runAdvance(ctx, { seconds, duration });
    });
}
