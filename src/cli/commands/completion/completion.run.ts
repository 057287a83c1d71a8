import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { bashCompletion, fishCompletion, zshCompletion } from '../../docs.js';

export async function runCompletion(ctx: CliContext, opts: { shell: string }): Promise<void> {
  const gen = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }[opts.shell];
  if (!gen) throw new UsageError(`unknown shell "${opts.shell}"; use bash, zsh or fish`, '<shell>');
  ctx.io.stdout.write(gen());
}
