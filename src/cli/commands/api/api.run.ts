import { readFile } from 'node:fs/promises';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';
import { printList, printResource } from '../../../output/formatters.js';
import { createListWriter } from '../../../output/list-writer.js';
import { HTTP_METHODS, type HttpMethodWord } from './methods.js';
import { holdYoungGeneration } from '../../stream-memory.js';

/** The flags as a shell gives them (`svc api get /v1/keys -F limit:=5`). */
export interface ApiCallOptions {
  method: string;
  path: string;
  field?: string[];
  input?: string;
  paginate?: boolean;
  idempotencyKey?: string;
}

/**
 * `-F key=value` is a string; `-F key:=json` is a typed JSON value (numbers, booleans, null, arrays);
 * dotted keys nest (`-F emergency.enabled:=true`). For GET and DELETE the fields become the query.
 */
export function parseFields(fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const typed = /^([^=:]+):=(.*)$/s.exec(f);
    const plain = /^([^=]+)=(.*)$/s.exec(f);
    const m = typed ?? plain;
    if (!m) throw new UsageError(`-F ${f}: expected key=value or key:=json`, '-F');
    let value: unknown = m[2];
    if (typed) {
      try {
        value = JSON.parse(m[2]!);
      } catch {
        throw new UsageError(`-F ${f}: the value after := is not JSON`, '-F');
      }
    }
    const keys = m[1]!.split('.');
    let target = out;
    for (const k of keys.slice(0, -1)) target = (target[k] ??= {}) as Record<string, unknown>;
    target[keys[keys.length - 1]!] = value;
  }
  return out;
}

export async function runApi(ctx: CliContext, opts: ApiCallOptions): Promise<void> {
  const method = opts.method.toUpperCase() as HttpMethodWord;
  if (!HTTP_METHODS.includes(method)) throw new UsageError(`unknown method ${opts.method}; use ${HTTP_METHODS.join(', ')}`, '<method>');
  if (!opts.path.startsWith('/')) throw new UsageError('the path must start with / (e.g. /v1/keys)', '<path>');
  const fields = parseFields(opts.field ?? []);
  const bodyless = method === 'GET' || method === 'DELETE';
  let body: unknown;
  if (opts.input !== undefined) {
    const text = opts.input === '-' ? await readStdin(ctx.io, '--input') : readFile(opts.input, 'utf8');
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
    holdYoungGeneration();
    const writer = createListWriter(ctx.io, { format: format ?? 'json', now: ctx.serviceNow() });
    for await (const page of client.paginate<Record<string, unknown>>(opts.path, query ?? {})) await writer.writeRows(page.data);
    await writer.end();
    return;
  }
  const res = await client.request<unknown>({ method, path: opts.path, query, body, idempotencyKey: opts.idempotencyKey });
  if (res.data === undefined) return;
  if (format === undefined || format === 'json') {
    ctx.io.stdout.write(`${JSON.stringify(res.data, null, 2)}\n`);
    return;
  }
  const d = res.data as { data?: unknown };
  if (Array.isArray(res.data)) await printList(ctx.io, res.data as object[], { format, now: ctx.serviceNow() });
  else if (d && Array.isArray(d.data)) await printList(ctx.io, d.data as object[], { format, now: ctx.serviceNow() });
  else await printResource(ctx.io, res.data as object, { format, now: ctx.serviceNow() });
}
