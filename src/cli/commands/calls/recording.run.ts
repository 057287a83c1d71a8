import type { CliContext } from '../../context.js';
import { saveAudio } from '../../audio-file.js';
import { getCallRecording } from '../../../api/resources/calls.js';
import type { CallRecordingOptions } from './recording.js';

export async function runCallRecording(ctx: CliContext, { id, out }: CallRecordingOptions): Promise<void> {
  const audio = await getCallRecording(await ctx.client(), id);
  await saveAudio(ctx, audio, { out, id, what: `recording of call ${id}` });
}
