// The route document (cli.md "Routes as code"): YAML whose keys are the API's PUT body. Shared by
// the run modules of `routes get|apply|diff|edit`; imports zod and yaml, so only run modules load it.
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { PutRouteBody, type CallRoute, type IvrAction, type PutRouteInput, type RouteDestination } from '../../../api/schemas/routes.js';
import { ROUTE_LIMITS as L } from '../../../api/values/routes.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A destination as written: the response's entry without its id and priority (its position is the priority). */
const destinationDoc = (d: RouteDestination) => ({
  destinationType: d.destinationType,
  destination: d.destination,
  label: d.label,
  stage: d.stage,
  ringTimeoutSecs: d.ringTimeoutSecs,
  enabled: d.enabled,
});

/** `{text, audioUrl}` with nulls dropped: the PUT body takes either or both, never null. */
const textOrAudioDoc = (o: { text: string | null; audioUrl: string | null }) => ({
  ...(o.text !== null ? { text: o.text } : {}),
  ...(o.audioUrl !== null ? { audioUrl: o.audioUrl } : {}),
});

const actionDoc = (a: IvrAction) => (a.type === 'ring' ? { type: a.type, ringMode: a.ringMode, destinations: a.destinations.map(destinationDoc) } : { type: a.type });

/**
 * The PUT body that recreates `route`: read-only fields (ids, priorities, the mirrored primary
 * `destinationType`/`destination`/`ringTimeoutSecs`, the uploaded greeting's URL) are left out, so
 * `get -o yaml` then `apply` changes nothing.
 */
export function routeToDocument(route: CallRoute): PutRouteInput {
  return {
    enabled: route.enabled,
    ringMode: route.ringMode,
    callerIdMode: route.callerIdMode,
    recordCalls: route.recordCalls,
    liveTranscription: route.liveTranscription,
    voicemailEnabled: route.voicemailEnabled,
    voicemailGreeting: route.voicemailGreeting,
    destinations: route.destinations.map(destinationDoc),
    noAnswerAction: route.noAnswerAction as PutRouteInput['noAnswerAction'],
    outboundRingTimeoutSecs: route.outboundRingTimeoutSecs,
    recordingNotice: route.recordingNotice === null ? null : textOrAudioDoc(route.recordingNotice),
    ivr:
      route.ivr === null
        ? null
        : {
            enabled: route.ivr.enabled,
            greeting: textOrAudioDoc(route.ivr.greeting),
            digitTimeoutSecs: route.ivr.digitTimeoutSecs,
            invalidRetries: route.ivr.invalidRetries,
            keys: route.ivr.keys.map((k) => ({ digit: k.digit, label: k.label, action: actionDoc(k.action) })),
            fallback: actionDoc(route.ivr.fallback),
          },
    decisionWebhook: route.decisionWebhook,
  };
}

export async function renderYaml(doc: unknown): Promise<string> {
  const YAML = await import('yaml');
  return YAML.stringify(doc, { lineWidth: 0 });
}

/** One problem with a document, at a path (`destinations[0].stage`) and, when known, a 1-based line. */
export interface DocumentProblem {
  path: string;
  message: string;
  line?: number;
}

export type ParsedDocument = { ok: true; body: PutRouteInput; empty: false } | { ok: false; problems: DocumentProblem[]; empty: boolean };

/** `['destinations', 0, 'stage']` → `destinations[0].stage`. */
export const formatPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((out, seg) => (typeof seg === 'number' ? `${out}[${seg}]` : out ? `${out}.${String(seg)}` : String(seg)), '');

/** The line of the deepest node along `path` that exists (a missing key points at its parent). */
function lineOf(root: Node | null, path: readonly PropertyKey[], lines: LineCounter): number | undefined {
  let node: unknown = root;
  let offset: number | undefined = root?.range?.[0];
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === seg);
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg]) {
      node = node.items[seg];
      offset = (node as Node).range?.[0] ?? offset;
    } else break;
  }
  return offset === undefined ? undefined : lines.linePos(offset).line;
}

/** The line of `path` in a document's text (a service error's field, to point at in the editor). */
export function lineForPath(text: string, path: readonly PropertyKey[]): number | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  return doc.errors.length ? undefined : lineOf(doc.contents, path, lines);
}

/**
 * Parses YAML or JSON (JSON is YAML) and validates it with the API's own PUT-body schema. Every
 * problem is reported, each with its path and line. `empty` is true for a document with no content
 * (only comments or whitespace).
 */
export function parseRouteDocument(text: string): ParsedDocument {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length) {
    return {
      ok: false,
      empty: false,
      problems: doc.errors.map((e) => ({ path: '(yaml)', message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), line: e.linePos?.[0]?.line })),
    };
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { ok: false, empty: true, problems: [{ path: '(document)', message: 'empty' }] };
  const result = PutRouteBody.safeParse(value);
  if (result.success) return { ok: true, body: value as PutRouteInput, empty: false };
  return {
    ok: false,
    empty: false,
    problems: result.error.issues.map((i) => ({ path: formatPath(i.path) || '(document)', message: i.message, line: lineOf(doc.contents, i.path, lines) })),
  };
}

/** `FILE:12: destinations[0].stage: Too big…` */
export const problemLine = (p: DocumentProblem, source?: string): string =>
  `${source !== undefined ? `${source}:` : ''}${p.line !== undefined ? `${p.line}: ` : source !== undefined ? ' ' : ''}${p.path}: ${p.message}`;

// --- plan ---------------------------------------------------------------------------------------

/**
 * A document as the service would save it: defaults applied (so an omitted default is no change)
 * and the legacy single form turned into its one-entry ring set, as the service does.
 */
function normalise(input: PutRouteInput): Record<string, Json> {
  const body = PutRouteBody.parse(input);
  const { destinationType, destination, ringTimeoutSecs, destinations, ...rest } = body;
  const set =
    destinations ??
    (destinationType !== undefined && destination !== undefined
      ? [{ destinationType, destination, label: null, stage: L.stage.default, ringTimeoutSecs: ringTimeoutSecs ?? L.ringTimeoutSecs.default, enabled: true }]
      : []);
  return { ...(rest as Record<string, Json>), destinations: set as unknown as Json };
}

/** The parts a plan compares: settings, destinations by label or destination, the IVR and its keys by digit. */
function parts(doc: Record<string, Json> | null): Map<string, Json> {
  const out = new Map<string, Json>();
  if (doc === null) return out;
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'destinations' || key === 'ivr' || value === null) continue;
    out.set(key, value);
  }
  const seen = new Map<string, number>();
  (doc.destinations as Array<Record<string, Json>>).forEach((d, priority) => {
    const base = String(d.label ?? d.destination);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    out.set(`destinations[${JSON.stringify(n > 1 ? `${base}#${n}` : base)}]`, { ...d, priority });
  });
  const ivr = doc.ivr as Record<string, Json> | null;
  if (ivr) {
    const { keys, ...settings } = ivr;
    out.set('ivr', settings);
    for (const k of keys as Array<Record<string, Json>>) {
      const { digit, ...rest } = k;
      out.set(`ivr.keys[${JSON.stringify(digit)}]`, rest);
    }
  }
  return out;
}

const show = (v: Json | undefined): string => (v === undefined ? '(none)' : JSON.stringify(v));

/** Leaf changes between two values: `[subpath, before, after]`. */
function changes(path: string, a: Json | undefined, b: Json | undefined): Array<[string, Json | undefined, Json | undefined]> {
  const isObj = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b) && a.type === b.type) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => changes(`${path}.${k}`, a[k], b[k]));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [[path, a, b]];
}

export interface Plan {
  lines: string[];
  add: number;
  change: number;
  remove: number;
}

/** The change `next` makes to `current` (null: no route yet), as `+`/`~`/`-` lines per part. */
export function planRoute(current: PutRouteInput | null, next: PutRouteInput): Plan {
  const before = parts(current === null ? null : normalise(current));
  const after = parts(normalise(next));
  const plan: Plan = { lines: [], add: 0, change: 0, remove: 0 };
  for (const [path, value] of after) {
    if (!before.has(path)) {
      plan.add++;
      plan.lines.push(`+ ${path}: ${show(value)}`);
      continue;
    }
    const diff = changes(path, before.get(path), value);
    if (diff.length) plan.change++;
    for (const [p, a, b] of diff) plan.lines.push(`~ ${p}: ${show(a)} → ${show(b)}`);
  }
  for (const [path, value] of before) {
    if (after.has(path)) continue;
    plan.remove++;
    plan.lines.push(`- ${path}: ${show(value)}`);
  }
  return plan;
}

export const planSummary = (p: Plan): string => `${p.add} to add, ${p.change} to change, ${p.remove} to remove`;

/** The plan as printed: its lines and the closing count, or `no changes`. */
export const renderPlan = (p: Plan): string => (p.lines.length ? `${p.lines.join('\n')}\n\n${planSummary(p)}\n` : 'no changes\n');
