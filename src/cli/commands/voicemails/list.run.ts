import type { CliContext } from '../../context.js';
import { runList } from '../../run-list.js';
import { voicemailList } from '../../../api/resources/voicemails.js';
import { VOICEMAIL_LIST_COLUMNS } from './columns.js';
import type { ListVoicemailsOptions } from './list.js';

export async function runListVoicemails(ctx: CliContext, opts: ListVoicemailsOptions): Promise<void> {
  await runList(ctx, opts, { endpoint: voicemailList, noun: 'voicemails', columns: VOICEMAIL_LIST_COLUMNS });
}
