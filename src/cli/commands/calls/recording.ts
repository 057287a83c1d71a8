import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface CallRecordingOptions {
  id: string;
  out?: string;
}

export function recordingCommand(parent: Command, ctx: CliContext, runF?: RunF<CallRecordingOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./recording.run.js')).runCallRecording(ctx, opts));
  return parent
    .command('recording')
    .description("Download a call's recording (WAV); only calls answered on a route with recordCalls on have one")
    .argument('<id>', 'call id (call_…)')
    .option('-O, --out <file>', 'write the audio to this file (- for stdout)')
    .addHelpText(
      'after',
      `
Without -O the audio goes to stdout when stdout is not a terminal (a pipe or a redirect); on a
terminal it is written to <id>.wav in the current directory, and the path is printed on stderr.
A call that was not recorded: exit 4 (not_found).

Examples:
  $ svc calls recording call_HxC5aVo9f9KUCgco8UWG -O call.wav
  $ svc calls recording call_HxC5aVo9f9KUCgco8UWG > call.wav`,
    )
    .action(async (id: string, flags: { out?: string }) => run({ id, out: flags.out }));
}
