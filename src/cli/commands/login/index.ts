import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';

export interface LoginOptions {
  profile: string;
  baseUrl?: string;
  apiKeyFromStdin: boolean;
}

export function register(cmd: Command, ctx: CliContext): void {
  cmd
    .option('--api-key-stdin', 'read the API key from standard input (for scripts)')
    .addHelpText(
      'after',
      '\nThe key is never taken as a flag value: it would leak into the process list and shell history.\n\nExamples:\n  $ svc login --profile prod --base-url https://api.example.com\n  $ printf %s "$KEY" | svc login --profile ci --base-url https://api.example.com --api-key-stdin --no-input',
    )
    .action(async (o: { apiKeyStdin?: boolean }) => {
      await runLogin(ctx, { profile: ctx.flags.profile ?? 'default', baseUrl: ctx.flags.baseUrl, apiKeyFromStdin: Boolean(o.apiKeyStdin) });
    });
}

export async function runLogin(ctx: CliContext, opts: LoginOptions): Promise<void> {
  const { DEFAULT_BASE_URL, assertProfileName } = await import('../../../config/profiles.js');
  // A bad name is refused before anything is asked or sent.
  try {
    assertProfileName(opts.profile);
  } catch (err) {
    throw new UsageError(`--profile: ${(err as Error).message}`, '--profile');
  }
  const store = await ctx.store();
  const existing = store.get(opts.profile);
  let baseUrl = opts.baseUrl ?? existing?.baseUrl;
  if (!baseUrl) {
    baseUrl = ctx.prompter.enabled ? await ctx.prompter.input('Base URL', { flag: '--base-url', default: DEFAULT_BASE_URL }) : DEFAULT_BASE_URL;
  }
  const key = (opts.apiKeyFromStdin ? await readStdin(ctx.io, '--api-key-stdin') : await ctx.prompter.password('API key (sk_live_… or sk_test_…)', { flag: '--api-key-stdin' })).trim();
  if (!/^sk_(live|test)_\S+$/.test(key)) throw new UsageError('--api-key-stdin: that is not an API key: expected sk_live_… or sk_test_…', '--api-key-stdin');

  // Verify with a real call before saving anything: a typo must not become the stored profile.
  const { ApiClient } = await import('../../../api/client/client.js');
  const client = new ApiClient({ baseUrl, apiKey: key, dispatcher: ctx.environment.dispatcher as never });
  await client.request({ method: 'GET', path: '/v1/keys', query: { limit: 1 } });

  store.set(opts.profile, { baseUrl, apiKey: key });
  store.use(opts.profile);
  const { maskKey } = await import('../../../api/client/redact.js');
  notice(ctx, `logged in: profile "${opts.profile}" → ${baseUrl} with ${maskKey(key)} (now the current profile)`);
}
