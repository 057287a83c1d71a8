import type { CliContext } from '../../context.js';
import { saveAudio } from '../../audio-file.js';
import { getVoicemailAudio } from '../../../api/resources/voicemails.js';

export interface VoicemailAudioOptions {
  id: string;
  out?: string;
}

export async function runVoicemailAudio(ctx: CliContext, { id, out }: VoicemailAudioOptions): Promise<void> {
  const audio = await getVoicemailAudio(await ctx.client(), id);
  await saveAudio(ctx, audio, { out, id, what: `audio of voicemail ${id}` });
}
