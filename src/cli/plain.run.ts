import type { CliContext } from './context.js';
import { notice, type ListFlags } from './command-kit.js';
import { printOne } from './print-resource.js';
import { runList } from './run-list.js';
import { callBare, readOne, type EndpointRef, type ItemEndpoint } from '../api/resources/endpoint.js';
import type { ListEndpoint } from '../api/resources/list.js';
import type { Query } from '../api/client/client.js';
import type { ColumnDef } from '../output/columns.js';

// The work of the plain verbs (plain-verbs.ts), the same for every resource.

export async function runGetOne(ctx: CliContext, e: ItemEndpoint, params: Record<string, string>, columns?: readonly string[]): Promise<void> {
  await printOne(ctx, await readOne(await ctx.client(), e, params), columns ? [...columns] : undefined);
}

export interface ListOf {
  endpoint: ListEndpoint<unknown, Query>;
  noun: string;
  columns?: readonly ColumnDef[];
  completeColumns?: boolean;
  filterKeys: readonly string[];
}

export async function runListOf(ctx: CliContext, opts: Record<string, unknown>, spec: ListOf): Promise<void> {
  const query: Query = {};
  for (const key of spec.filterKeys) if (opts[key] !== undefined) query[key] = opts[key] as Query[string];
  await runList(ctx, opts as ListFlags, { endpoint: spec.endpoint, query, noun: spec.noun, columns: spec.columns, completeColumns: spec.completeColumns });
}

export async function runDeleteOne(ctx: CliContext, e: EndpointRef, params: Record<string, string>, question: string, done: string): Promise<void> {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '');
  await ctx.confirm(fill(question));
  await callBare(await ctx.client(), e, params);
  notice(ctx, fill(done));
}
