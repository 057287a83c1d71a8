import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';
import { isBuiltInProfile, type Profile } from '../../../config/profiles.js';
import { maskKey } from '../../../api/client/redact.js';
import { printList } from '../../../output/formatters.js';

async function view(ctx: CliContext, p: Profile) {
  const store = await ctx.store();
  // cli.md: keys masked (sk_live_…a1b2) wherever a profile is shown.
  return { name: p.name, current: store.current() === p.name, baseUrl: p.baseUrl, apiKey: p.apiKey ? maskKey(p.apiKey) : null, subaccount: p.subaccount ?? null };
}

export interface ProfileArg {
  name: string;
}

export async function runListProfiles(ctx: CliContext): Promise<void> {
  const store = await ctx.store();
  const rows = await Promise.all(store.list().map((p) => view(ctx, p)));
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['name', 'current', 'baseUrl', 'apiKey', 'subaccount'], idField: 'name' });
}

export async function runShowProfile(ctx: CliContext, { name }: { name?: string }): Promise<void> {
  const store = await ctx.store();
  const target = name ?? ctx.flags.profile ?? store.current();
  const p = store.get(target);
  if (!p) throw new UsageError(`no profile named "${target}"; see \`svc profiles list\``);
  await printOne(ctx, await view(ctx, p));
}

export async function runUse(ctx: CliContext, { name }: ProfileArg): Promise<void> {
  const store = await ctx.store();
  if (!store.get(name)) throw new UsageError(`no profile named "${name}"; see \`svc profiles list\``);
  store.use(name);
  notice(ctx, `current profile: ${name}`);
}

export async function runAdd(ctx: CliContext, o: ProfileArg & { apiKeyStdin?: boolean }): Promise<void> {
  const { name } = o;
  const store = await ctx.store();
  const update: { baseUrl?: string; apiKey?: string } = {};
  if (ctx.flags.baseUrl) update.baseUrl = ctx.flags.baseUrl;
  if (o.apiKeyStdin) update.apiKey = (await readStdin(ctx.io, '--api-key-stdin')).trim();
  if (!update.baseUrl && !store.get(name)) throw new UsageError('a new profile needs --base-url', '--base-url');
  store.set(name, update);
  notice(ctx, `saved profile "${name}"`);
}

export async function runDelete(ctx: CliContext, { name }: ProfileArg): Promise<void> {
  // `local` is built in (the local service, keyed from bootstrap.json): there is nothing to remove,
  // and saying "removed" would be untrue.
  if (isBuiltInProfile(name)) throw new UsageError(`"${name}" is built in and cannot be deleted; its sub-account context is cleared with \`svc context clear --profile ${name}\``);
  const store = await ctx.store();
  if (!store.get(name)) throw new UsageError(`no profile named "${name}"`);
  // Nothing is sent here: --dry-run (which skips the confirmation) must not remove anything either.
  if (ctx.flags.dryRun) {
    ctx.io.stdout.write(`would delete profile "${name}" from ${store.path}\n`);
    return;
  }
  await ctx.confirm(`Delete profile "${name}" and its stored key?`);
  store.remove(name);
  notice(ctx, `deleted profile "${name}"`);
}
