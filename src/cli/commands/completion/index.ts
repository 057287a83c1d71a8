import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

export function register(cmd: Command, ctx: CliContext): void {
  cmd
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      '\nThe script asks `svc __complete` at each TAB: commands, flags (global ones anywhere), flag values\n(formats, statuses, event types, profiles) and ids from the local service (numbers, webhooks, keys,\nsub-accounts) within a short timeout.\n\nExamples:\n  $ svc completion bash > /etc/bash_completion.d/svc\n  $ svc completion zsh > "${fpath[1]}/_svc"\n  $ svc completion fish > ~/.config/fish/completions/svc.fish',
    )
    .action(async (shell: string) => (await import('./completion.run.js')).runCompletion(ctx, { shell }));
}
