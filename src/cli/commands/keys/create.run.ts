import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CliError } from '../../errors.js';
import { createApiKey } from '../../../api/resources/keys.js';
import type { KEY_MODES } from '../../../api/values/keys.js';
import { CREATED_KEY_FIELDS } from './columns.js';

export interface CreateKeyOptions {
  name: string;
  /** Asked on a terminal when absent; without one it must be given (a live key is never made by default). */
  mode?: (typeof KEY_MODES)[number];
}

export async function runCreate(ctx: CliContext, opts: CreateKeyOptions): Promise<void> {
  // A live key sends real messages and moves money: it is made only when asked for by name.
  const mode =
    opts.mode ??
    (await ctx.prompter.select(
      'Which kind of key?',
      [
        { value: 'test' as const, name: 'test: sandbox only, moves no money' },
        { value: 'live' as const, name: 'live: real sends and charges' },
      ],
      { flag: '--mode' },
    ));
  const created = await createApiKey(await ctx.client(), { name: opts.name, mode });
  if (created.key === null) {
    // An idempotent replay (a retry after the first answer was lost): the service stores only a
    // hash, so the key it created then can never be shown. Printing `key: null` would look like success.
    throw new CliError(
      `key ${created.id} ("${created.name}") was created by an earlier attempt of this request, and the service can never show it again; ` +
        `revoke it with \`svc keys revoke ${created.id}\` and create a new one`,
    );
  }
  await printOne(ctx, created, CREATED_KEY_FIELDS);
  if (ctx.io.stderrTTY) notice(ctx, 'Save the key now: the service stores only a hash and can never show it again.');
}
