import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

// Profiles live in the config dir; their run functions share profiles.run.ts, loaded when a verb runs.
const verbs = () => import('./profiles.run.js');

export function register(group: Command, ctx: CliContext): void {
  group
    .command('list')
    .description('List profiles (keys masked)')
    .addHelpText('after', '\nExamples:\n  $ svc profiles list\n  $ svc profiles list -o json')
    .action(async () => (await verbs()).runListProfiles(ctx));

  group
    .command('show')
    .description('Show one profile (default: the current one), key masked')
    .addHelpText('after', '\nExamples:\n  $ svc profiles show\n  $ svc profiles show prod')
    .argument('[name]', 'profile name')
    .action(async (name?: string) => (await verbs()).runShowProfile(ctx, name));

  group
    .command('use')
    .description('Make a profile the current one')
    .addHelpText('after', '\nExamples:\n  $ svc profiles use prod\n  $ svc profiles use local')
    .argument('<name>', 'profile name')
    .action(async (name: string) => (await verbs()).runUse(ctx, name));

  group
    .command('add')
    .description('Add or update a profile without verifying it (svc login verifies)')
    .argument('<name>', 'profile name')
    .option('--api-key-stdin', 'read the API key from standard input')
    .addHelpText('after', '\nExamples:\n  $ svc profiles add staging --base-url https://staging.example.com --api-key-stdin < key.txt')
    .action(async (name: string, o: { apiKeyStdin?: boolean }) => (await verbs()).runAdd(ctx, name, o));

  group
    .command('remove')
    .description('Remove a profile')
    .addHelpText('after', '\nExamples:\n  $ svc profiles remove staging --yes')
    .argument('<name>', 'profile name')
    .action(async (name: string) => (await verbs()).runRemove(ctx, name));
}
