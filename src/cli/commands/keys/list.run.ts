import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import { runList } from '../../run-list.js';
import { apiKeyList } from '../../../api/resources/keys.js';

export async function runListKeys(ctx: CliContext, flags: ListFlags): Promise<void> {
  await runList(ctx, flags, {
    endpoint: apiKeyList,
    noun: 'keys',
    columns: ['id', 'name', 'mode', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
    completeColumns: true,
  });
}
