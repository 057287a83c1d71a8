import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetVoicemailOptions {
  id: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetVoicemailOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGetVoicemail(ctx, opts));
  return parent
    .command('get')
    .description('Show one voicemail: caller, length, transcript and the audio URL')
    .argument('<id>', 'voicemail id')
    .addHelpText('after', '\nExamples:\n  $ svc voicemails get vm_4UNrKGnBlaqRLtuFvN23\n  $ svc voicemails get vm_4UNrKGnBlaqRLtuFvN23 -o json')
    .action(async (id: string) => run({ id }));
}
