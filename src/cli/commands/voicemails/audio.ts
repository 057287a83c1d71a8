import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface VoicemailAudioOptions {
  id: string;
  out?: string;
}

export function audioCommand(parent: Command, ctx: CliContext, runF?: RunF<VoicemailAudioOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./audio.run.js')).runVoicemailAudio(ctx, opts));
  return parent
    .command('audio')
    .description("Download a voicemail's audio (WAV)")
    .argument('<id>', 'voicemail id')
    .option('-O, --out <file>', 'write the audio to this file (- for stdout)')
    .addHelpText(
      'after',
      `
Without -O the audio goes to stdout when stdout is not a terminal (a pipe or a redirect); on a
terminal it is written to <id>.wav in the current directory, and the path is printed on stderr.

Examples:
  $ svc voicemails audio vm_4UNrKGnBlaqRLtuFvN23 -O message.wav
  $ svc voicemails audio vm_4UNrKGnBlaqRLtuFvN23 | aplay`,
    )
    .action(async (id: string, flags: { out?: string }) => run({ id, out: flags.out }));
}
