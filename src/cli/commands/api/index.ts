import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { RunF } from '../../command-kit.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

export interface ApiCallOptions {
  method: Method;
  path: string;
  fields: string[];
  input?: string;
  paginate: boolean;
  idempotencyKey?: string;
}

export function register(cmd: Command, ctx: CliContext, runF?: RunF<ApiCallOptions>): void {
  const run = runF ?? (async (opts) => (await import('./api.run.js')).runApi(ctx, opts));
  cmd
    .argument('<method>', METHODS.join(', '))
    .argument('<path>', 'path under the base URL, e.g. /v1/numbers')
    // No default value: commander would print `(default: [])` in the help; absent means none.
    .option('-f, --field <key=value>', 'a body field (query parameter for GET); key:=json for typed values; repeatable', (v: string, acc: string[] | undefined) => [...(acc ?? []), v])
    .option('--input <file>', 'the request body as JSON from a file, or - for standard input')
    .option('--paginate', 'follow nextCursor and print every row')
    .option('--idempotency-key <key>', 'for POST; generated when omitted')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc api GET /v1/keys -f limit:=5\n  $ svc api POST /v1/keys -f name=ci -f mode=test\n  $ svc api GET /v1/messages --paginate -o ndjson\n  $ echo \'{"name":"x"}\' | svc api POST /v1/subaccounts --input -',
    )
    .action(async (method: string, path: string, o: { field?: string[]; input?: string; paginate?: boolean; idempotencyKey?: string }) => {
      const m = method.toUpperCase();
      if (!(METHODS as readonly string[]).includes(m)) throw new UsageError(`unknown method ${method}; use ${METHODS.join(', ')}`, '<method>');
      if (!path.startsWith('/')) throw new UsageError('the path must start with / (e.g. /v1/keys)', '<path>');
      await run({ method: m as Method, path, fields: o.field ?? [], input: o.input, paginate: Boolean(o.paginate), idempotencyKey: o.idempotencyKey });
    });
}
