import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';
import { ApiClient } from '../../../api/client/client.js';
import { maskKey } from '../../../api/client/redact.js';
import { listPage } from '../../../api/resources/list.js';
import { apiKeyList } from '../../../api/resources/keys.js';
import { apiKeyProblem } from '../../../api/values/keys.js';
import { DEFAULT_BASE_URL, assertProfileName } from '../../../config/profiles.js';

export interface LoginOptions {
  profile: string;
  baseUrl?: string;
  apiKeyFromStdin: boolean;
}

/** The verb: the profile and base URL are the global flags. */
export async function runLoginVerb(ctx: CliContext, flags: { apiKeyStdin?: boolean }): Promise<void> {
  await runLogin(ctx, { profile: ctx.flags.profile ?? 'default', baseUrl: ctx.flags.baseUrl, apiKeyFromStdin: Boolean(flags.apiKeyStdin) });
}

export async function runLogin(ctx: CliContext, opts: LoginOptions): Promise<void> {
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
  // Checked here, not by the service: its refusal talks about the Authorization header, not the key.
  const problem = apiKeyProblem(key);
  if (problem) throw new UsageError(`${opts.apiKeyFromStdin ? 'the API key read from stdin' : 'the API key you entered'} is not an API key: ${problem}`, '--api-key-stdin');

  // Verify with a real call before saving anything: a typo must not become the stored profile.
  const client = new ApiClient({ baseUrl, apiKey: key, dispatcher: ctx.environment.dispatcher as never });
  await listPage(client, apiKeyList, { limit: 1 });

  store.set(opts.profile, { baseUrl, apiKey: key });
  store.use(opts.profile);
  notice(ctx, `logged in: profile "${opts.profile}" → ${baseUrl} with ${maskKey(key)} (now the current profile)`);
}
