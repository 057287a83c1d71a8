import type { Query } from '../api/client/client.js';
import type { EndpointRef, ItemEndpoint } from '../api/resources/endpoint.js';
import type { ListEndpoint } from '../api/resources/list.js';
import type { ColumnDef } from '../output/columns.js';
import { LIST_FLAGS } from './list-flags.js';
import { optionKey, type ArgDef, type FlagDef, type VerbDefinition } from './verb.js';

// A plain get, list or delete is one line of data over its `api/resources` endpoint; the
// work is the same for every resource (plain.run.ts), loaded when the verb runs.

interface PlainBase {
  summary: string;
  examples: readonly string[];
  details?: string;
}

export interface PlainGet extends PlainBase {
  name?: string;
  arg: ArgDef;
  endpoint: ItemEndpoint;
  columns?: readonly string[];
}

/** `svc <group> get <id>`: one resource, printed in the chosen format. */
export function plainGet(spec: PlainGet): VerbDefinition<Record<string, string>> {
  const key = optionKey(spec.arg.name);
  return {
    name: spec.name ?? 'get',
    summary: spec.summary,
    args: [spec.arg],
    examples: spec.examples,
    details: spec.details,
    api: spec.endpoint,
    run: async () => {
      const { runGetOne } = await import('./plain.run.js');
      return (ctx, opts) => runGetOne(ctx, spec.endpoint, { [paramOf(spec.endpoint)]: opts[key]! }, spec.columns);
    },
  };
}

export interface PlainList extends PlainBase {
  endpoint: ListEndpoint<unknown, Query>;
  /** "no voicemails found" */
  noun: string;
  columns?: readonly ColumnDef[];
  /** csv gets every column of the row schema from the first page on. */
  completeColumns?: boolean;
  /** Filter flags, sent as the query parameter of their key (`--status` → `status`). */
  filters?: readonly FlagDef[];
}

/** `svc <group> list`: one page, or every page streamed with --all, from --cursor. */
export function plainList(spec: PlainList): VerbDefinition<Record<string, unknown>> {
  const filterKeys = (spec.filters ?? []).map((f) => optionKey(f.flags));
  return {
    name: 'list',
    summary: spec.summary,
    flags: [...LIST_FLAGS, ...(spec.filters ?? [])],
    examples: spec.examples,
    details: spec.details,
    api: { method: 'GET', path: spec.endpoint.path, agencyLevel: spec.endpoint.agencyLevel },
    run: async () => {
      const { runListOf } = await import('./plain.run.js');
      return (ctx, opts) => runListOf(ctx, opts, { endpoint: spec.endpoint, noun: spec.noun, columns: spec.columns, completeColumns: spec.completeColumns, filterKeys });
    },
  };
}

export interface PlainDelete extends PlainBase {
  arg: ArgDef;
  endpoint: EndpointRef;
  /** The question asked first (`Delete webhook endpoint we_1?`); `{id}` is the argument. */
  confirm: string;
  /** What a person reads after it (`deleted we_1`). */
  done?: string;
}

/** `svc <group> delete <id>` (`remove` kept as an alias): asks first, then deletes. */
export function plainDelete(spec: PlainDelete): VerbDefinition<Record<string, string>> {
  const key = optionKey(spec.arg.name);
  return {
    name: 'delete',
    aliases: ['remove'],
    summary: spec.summary,
    args: [spec.arg],
    examples: spec.examples,
    details: spec.details,
    changes: true,
    prompts: true,
    api: spec.endpoint,
    run: async () => {
      const { runDeleteOne } = await import('./plain.run.js');
      return (ctx, opts) => runDeleteOne(ctx, spec.endpoint, { [paramOf(spec.endpoint)]: opts[key]! }, spec.confirm, spec.done ?? 'deleted {id}');
    },
  };
}

/** The one parameter of an item path (`/v1/voicemails/{id}` → `id`). */
function paramOf(e: EndpointRef): string {
  return /\{([a-zA-Z]+)\}/.exec(e.path)?.[1] ?? 'id';
}
