import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { EMAIL_STATUSES, type EmailStatus } from '../../../api/values/email.js';

export interface ListEmailsOptions extends ListFlags {
  status?: EmailStatus;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListEmailsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./emails.run.js')).runListEmails(ctx, opts));
  return addListOptions(parent.command('list').description('List the emails you sent, newest first'))
    .addOption(enumOption('--status <status>', EMAIL_STATUSES.join(', '), EMAIL_STATUSES))
    .addHelpText('after', '\nExamples:\n  $ svc emails list\n  $ svc emails list --status bounced --all')
    .action(async (o: ListEmailsOptions) => run(o));
}
