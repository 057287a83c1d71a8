import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';

export function register(cmd: Command, ctx: CliContext): void {
  cmd
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', '\nExamples:\n  $ svc completion bash > /etc/bash_completion.d/svc\n  $ svc completion zsh > "${fpath[1]}/_svc"\n  $ svc completion fish > ~/.config/fish/completions/svc.fish')
    .action(async (shell: string) => {
      const docs = await import('../../docs.js');
      const { fullCommandTree } = await import('../../full-tree.js');
      const tree = docs.treeOf(await fullCommandTree(ctx.environment));
      const gen = { bash: docs.bashCompletion, zsh: docs.zshCompletion, fish: docs.fishCompletion }[shell];
      if (!gen) throw new UsageError(`unknown shell "${shell}"; use bash, zsh or fish`, '<shell>');
      ctx.io.stdout.write(gen(tree));
    });
}
