import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, type RunF } from '../../command-kit.js';
import { KEY_MODES } from '../../../api/values/keys.js';

export interface CreateKeyOptions {
  name: string;
  /** Asked on a terminal when absent; without one it must be given (a live key is never made by default). */
  mode?: (typeof KEY_MODES)[number];
}

export function createCommand(parent: Command, ctx: CliContext, runF?: RunF<CreateKeyOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./create.run.js')).runCreate(ctx, opts));
  return parent
    .command('create')
    .description('Create an API key; the key is printed once and cannot be shown again')
    .requiredOption('--name <name>', 'a name to recognise the key by')
    .addOption(enumOption('--mode <mode>', 'live or test (asked on a terminal; required otherwise)', KEY_MODES))
    .addHelpText('after', '\nExamples:\n  $ svc keys create --name ci --mode test\n  $ svc keys create --name deploy --mode live -o json | jq -r .key')
    .action(async (opts: CreateKeyOptions) => run({ name: opts.name, mode: opts.mode }));
}
