import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, type RunF } from '../../command-kit.js';
import { GREETING_AUDIO_TYPES, type GreetingAudioType } from '../../../api/values/routes.js';

export interface GreetingOptions {
  number: string;
  file: string;
  contentType?: GreetingAudioType;
}

export function greetingCommand(parent: Command, ctx: CliContext, runF?: RunF<GreetingOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./greeting.run.js')).runGreeting(ctx, opts));
  return parent
    .command('greeting')
    .description("Upload a number's voicemail greeting recording (mp3, wav or ogg) and print its new URL")
    .argument('<number>', 'number id (num_…) or E.164')
    .argument('<file>', 'the recording; its type from the extension (.mp3 .wav .ogg) unless --content-type')
    .addOption(enumOption('--content-type <type>', 'the audio type, when the extension does not say', GREETING_AUDIO_TYPES))
    .addHelpText('after', '\nExamples:\n  $ svc numbers greeting +14155550123 greeting.mp3\n  $ svc numbers greeting num_n0STtke71XAzVlsShJVy recording.bin --content-type audio/wav')
    .action(async (number: string, file: string, flags: { contentType?: GreetingAudioType }) => run({ number, file, contentType: flags.contentType }));
}
