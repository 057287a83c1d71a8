import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { getVoicemail } from '../../../api/resources/voicemails.js';
import { VOICEMAIL_COLUMNS } from './columns.js';
import type { GetVoicemailOptions } from './get.js';

export async function runGetVoicemail(ctx: CliContext, { id }: GetVoicemailOptions): Promise<void> {
  await printOne(ctx, await getVoicemail(await ctx.client(), id), VOICEMAIL_COLUMNS);
}
