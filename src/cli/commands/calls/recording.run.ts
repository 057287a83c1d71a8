import type { CliContext } from '../../context.js';
import { saveAudio } from '../../audio-file.js';
import { getCallRecording } from '../../../api/resources/calls.js';

export interface CallRecordingOptions {
  id: string;
  out?: string;
}

export async function runCallRecording(ctx: CliContext, { id, out }: CallRecordingOptions): Promise<void> {
  const audio = await getCallRecording(await ctx.client(), id);
  await saveAudio(ctx, audio, { out, id, what: `recording of call ${id}` });
}
