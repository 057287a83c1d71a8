import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import { runList } from '../../run-list.js';
import { apiKeyList } from '../../../api/resources/keys.js';
import type { ColumnDef } from '../../../output/columns.js';

/** The prefix (`sk_live_z6XS`) is what tells two keys apart on a screen: never cut (issue 24). */
export const KEY_LIST_COLUMNS: ColumnDef[] = ['id', 'name', 'mode', { field: 'prefix', keep: 45, fit: 'whole' }, 'createdAt', 'lastUsedAt', 'revokedAt'];

export async function runListKeys(ctx: CliContext, flags: ListFlags): Promise<void> {
  await runList(ctx, flags, {
    endpoint: apiKeyList,
    noun: 'keys',
    columns: KEY_LIST_COLUMNS,
    completeColumns: true,
  });
}
