import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';

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

/**
 * `-f key=value` is a string; `-f key:=json` is a typed JSON value (numbers, booleans, null, arrays);
 * dotted keys nest (`-f emergency.enabled:=true`). For GET and DELETE the fields become the query.
 */
export function parseFields(fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const typed = /^([^=:]+):=(.*)$/s.exec(f);
    const plain = /^([^=]+)=(.*)$/s.exec(f);
    const m = typed ?? plain;
    if (!m) throw new UsageError(`-f ${f}: expected key=value or key:=json`, '-f');
    let value: unknown = m[2];
    if (typed) {
      try {
        value = JSON.parse(m[2]!);
      } catch {
        throw new UsageError(`-f ${f}: the value after := is not JSON`, '-f');
      }
    }
    const keys = m[1]!.split('.');
    let target = out;
    for (const k of keys.slice(0, -1)) target = (target[k] ??= {}) as Record<string, unknown>;
    target[keys[keys.length - 1]!] = value;
  }
  return out;
}

export function register(cmd: Command, ctx: CliContext): void {
  cmd
    .argument('<method>', METHODS.join(', '))
    .argument('<path>', 'path under the base URL, e.g. /v1/numbers')
    .option('-f, --field <key=value>', 'a body field (query parameter for GET); key:=json for typed values', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--input <file>', 'the request body as JSON from a file, or - for standard input')
    .option('--paginate', 'follow nextCursor and print every row')
    .option('--idempotency-key <key>', 'for POST; generated when omitted')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc api GET /v1/keys -f limit:=5\n  $ svc api POST /v1/keys -f name=ci -f mode=test\n  $ svc api GET /v1/messages --paginate -o ndjson\n  $ echo \'{"name":"x"}\' | svc api POST /v1/subaccounts --input -',
    )
    .action(async (method: string, path: string, o: { field: string[]; input?: string; paginate?: boolean; idempotencyKey?: string }) => {
      const m = method.toUpperCase();
      if (!(METHODS as readonly string[]).includes(m)) throw new UsageError(`unknown method ${method}; use ${METHODS.join(', ')}`, '<method>');
      if (!path.startsWith('/')) throw new UsageError('the path must start with / (e.g. /v1/keys)', '<path>');
      await runApi(ctx, { method: m as Method, path, fields: o.field, input: o.input, paginate: Boolean(o.paginate), idempotencyKey: o.idempotencyKey });
    });
}

export async function runApi(ctx: CliContext, opts: ApiCallOptions): Promise<void> {
  const fields = parseFields(opts.fields);
  const bodyless = opts.method === 'GET' || opts.method === 'DELETE';
  let body: unknown;
  if (opts.input !== undefined) {
    const text = opts.input === '-' ? await readStdin(ctx.io, '--input') : (await import('node:fs/promises')).readFile(opts.input, 'utf8');
    try {
      body = JSON.parse(await text);
    } catch {
      throw new UsageError(`--input ${opts.input}: not valid JSON`, '--input');
    }
  } else if (!bodyless && Object.keys(fields).length) {
    body = fields;
  }
  const query = bodyless ? (fields as Record<string, string>) : undefined;
  const client = await ctx.client();
  const format = ctx.outputFormat;
  if (opts.paginate) {
    const { createListWriter } = await import('../../../output/list-writer.js');
    const writer = createListWriter(ctx.io, { format: format ?? 'json', now: ctx.now() });
    for await (const page of client.paginate<Record<string, unknown>>(opts.path, query ?? {})) await writer.writeRows(page.data);
    await writer.end();
    return;
  }
  const res = await client.request<unknown>({ method: opts.method, path: opts.path, query, body, idempotencyKey: opts.idempotencyKey });
  if (res.data === undefined) return;
  if (format === undefined || format === 'json') {
    ctx.io.stdout.write(`${JSON.stringify(res.data, null, 2)}\n`);
    return;
  }
  const { printList, printResource } = await import('../../../output/formatters.js');
  const d = res.data as { data?: unknown };
  if (Array.isArray(res.data)) await printList(ctx.io, res.data as object[], { format });
  else if (d && Array.isArray(d.data)) await printList(ctx.io, d.data as object[], { format });
  else await printResource(ctx.io, res.data as object, { format });
}
