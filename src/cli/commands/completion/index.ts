import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

export function register(cmd: Command, ctx: CliContext): void {
  cmd
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', '\nExamples:\n  $ svc completion bash > /etc/bash_completion.d/svc\n  $ svc completion zsh > "${fpath[1]}/_svc"\n  $ svc completion fish > ~/.config/fish/completions/svc.fish')
    .action(async (shell: string) => (await import('./completion.run.js')).runCompletion(ctx, { shell }));
}
