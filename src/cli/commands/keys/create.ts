import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, notice, printOne } from '../../command-kit.js';

export interface CreateKeyOptions {
  name: string;
  mode: 'live' | 'test';
}

export function createCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('create')
    .description('Create an API key; the key is printed once and cannot be shown again')
    .requiredOption('--name <name>', 'a name to recognise the key by')
    .addOption(enumOption('--mode <mode>', 'live or test', ['live', 'test']).default('live'))
    .addHelpText('after', '\nExamples:\n  $ svc keys create --name ci --mode test\n  $ svc keys create --name deploy -o json | jq -r .key')
    .action(async (opts: CreateKeyOptions) => runCreate(ctx, { name: opts.name, mode: opts.mode }));
}

export async function runCreate(ctx: CliContext, opts: CreateKeyOptions): Promise<void> {
  const { createApiKey } = await import('../../../api/resources/keys.js');
  const created = await createApiKey(await ctx.client(), opts);
  if (created.key === null) {
    // An idempotent replay (a retry after the first answer was lost): the service stores only a
    // hash, so the key it created then can never be shown. Printing `key: null` would look like success.
    const { CliError } = await import('../../errors.js');
    throw new CliError(
      `key ${created.id} ("${created.name}") was created by an earlier attempt of this request, and the service can never show it again; ` +
        `revoke it with \`svc keys revoke ${created.id}\` and create a new one`,
    );
  }
  await printOne(ctx, created, ['id', 'name', 'mode', 'prefix', 'key', 'createdAt']);
  if (ctx.io.stderrTTY) notice(ctx, 'Save the key now: the service stores only a hash and can never show it again.');
}
