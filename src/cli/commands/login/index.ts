import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface LoginOptions {
  profile: string;
  baseUrl?: string;
  apiKeyFromStdin: boolean;
}

export function register(cmd: Command, ctx: CliContext, runF?: RunF<LoginOptions>): void {
  const run = runF ?? (async (opts) => (await import('./login.run.js')).runLogin(ctx, opts));
  cmd
    .option('--api-key-stdin', 'read the API key from standard input (for scripts)')
    .addHelpText(
      'after',
      '\nThe key is never taken as a flag value: it would leak into the process list and shell history.\n\nExamples:\n  $ svc login --profile prod --base-url https://api.example.com\n  $ printf %s "$KEY" | svc login --profile ci --base-url https://api.example.com --api-key-stdin --no-input',
    )
    .action(async (o: { apiKeyStdin?: boolean }) => {
      await run({ profile: ctx.flags.profile ?? 'default', baseUrl: ctx.flags.baseUrl, apiKeyFromStdin: Boolean(o.apiKeyStdin) });
    });
}
