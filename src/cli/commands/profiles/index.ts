import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';
import type { Profile } from '../../../config/profiles.js';

async function view(ctx: CliContext, p: Profile) {
  const { maskKey } = await import('../../../api/client/redact.js');
  const store = await ctx.store();
  // cli.md: keys masked (sk_live_…a1b2) wherever a profile is shown.
  return { name: p.name, current: store.current() === p.name, baseUrl: p.baseUrl, apiKey: p.apiKey ? maskKey(p.apiKey) : null, subaccount: p.subaccount ?? null };
}

export function register(group: Command, ctx: CliContext): void {
  group
    .command('list')
    .description('List profiles (keys masked)')
    .addHelpText('after', '\nExamples:\n  $ svc profiles list\n  $ svc profiles list -o json')
    .action(async () => {
      const store = await ctx.store();
      const rows = await Promise.all(store.list().map((p) => view(ctx, p)));
      const { printList } = await import('../../../output/formatters.js');
      await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['name', 'current', 'baseUrl', 'apiKey', 'subaccount'] });
    });

  group
    .command('show')
    .description('Show one profile (default: the current one), key masked')
    .addHelpText('after', '\nExamples:\n  $ svc profiles show\n  $ svc profiles show prod')
    .argument('[name]', 'profile name')
    .action(async (name?: string) => {
      const store = await ctx.store();
      const target = name ?? ctx.flags.profile ?? store.current();
      const p = store.get(target);
      if (!p) throw new UsageError(`no profile named "${target}"; see \`svc profiles list\``);
      await printOne(ctx, await view(ctx, p));
    });

  group
    .command('use')
    .description('Make a profile the current one')
    .addHelpText('after', '\nExamples:\n  $ svc profiles use prod\n  $ svc profiles use local')
    .argument('<name>', 'profile name')
    .action(async (name: string) => {
      const store = await ctx.store();
      if (!store.get(name)) throw new UsageError(`no profile named "${name}"; see \`svc profiles list\``);
      store.use(name);
      notice(ctx, `current profile: ${name}`);
    });

  group
    .command('add')
    .description('Add or update a profile without verifying it (svc login verifies)')
    .argument('<name>', 'profile name')
    .option('--api-key-stdin', 'read the API key from standard input')
    .addHelpText('after', '\nExamples:\n  $ svc profiles add staging --base-url https://staging.example.com --api-key-stdin < key.txt')
    .action(async (name: string, o: { apiKeyStdin?: boolean }) => {
      const store = await ctx.store();
      const update: { baseUrl?: string; apiKey?: string } = {};
      if (ctx.flags.baseUrl) update.baseUrl = ctx.flags.baseUrl;
      if (o.apiKeyStdin) update.apiKey = (await readStdin(ctx.io, '--api-key-stdin')).trim();
      if (!update.baseUrl && !store.get(name)) throw new UsageError('a new profile needs --base-url', '--base-url');
      store.set(name, update);
      notice(ctx, `saved profile "${name}"`);
    });

  group
    .command('remove')
    .description('Remove a profile')
    .addHelpText('after', '\nExamples:\n  $ svc profiles remove staging --yes')
    .argument('<name>', 'profile name')
    .action(async (name: string) => {
      const store = await ctx.store();
      if (!store.get(name)) throw new UsageError(`no profile named "${name}"`);
      // Nothing is sent here: --dry-run (which skips the confirmation) must not remove anything either.
      if (ctx.flags.dryRun) {
        ctx.io.stdout.write(`would remove profile "${name}" from ${store.path}\n`);
        return;
      }
      await ctx.confirm(`Remove profile "${name}" and its stored key?`);
      store.remove(name);
      notice(ctx, `removed profile "${name}"`);
    });
}
