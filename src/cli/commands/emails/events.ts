import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface EmailEventsOptions {
  email: string;
}

export function eventsCommand(parent: Command, ctx: CliContext, runF?: RunF<EmailEventsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./emails.run.js')).runEmailEvents(ctx, opts));
  return parent
    .command('events')
    .description("An email's timeline: each recipient's sends, deliveries, bounces, opens, clicks, oldest first")
    .argument('<email>', 'email id (eml_…)')
    .addHelpText(
      'after',
      '\nOne row per entry: when, type, recipient, kind, status and detail (the bounce, the clicked url or the\nunsubscribe method). -o json, yaml and ndjson print the entries as the API gives them.\n\nExamples:\n  $ svc emails events eml_k0Pw1UTo4AoEs8XfvbDy\n  $ svc emails events eml_k0Pw1UTo4AoEs8XfvbDy -o json',
    )
    .action(async (email: string) => run({ email }));
}
