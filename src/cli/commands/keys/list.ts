import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, runList, type ListFlags } from '../../command-kit.js';

export function listCommand(parent: Command, ctx: CliContext): Command {
  return addListOptions(parent.command('list').description('List API keys (prefixes only; keys are never shown again)'))
    .addHelpText('after', '\nExamples:\n  $ svc keys list\n  $ svc keys list --all -o ndjson')
    .action(async (opts: ListFlags) => runListKeys(ctx, opts));
}

export async function runListKeys(ctx: CliContext, flags: ListFlags): Promise<void> {
  await runList(ctx, flags, {
    path: '/v1/keys',
    noun: 'keys',
    columns: ['id', 'name', 'mode', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
    allColumns: async () => (await import('../../../output/schema-columns.js')).schemaColumns((await import('../../../api/schemas/keys.js')).ApiKeySchema),
  });
}
