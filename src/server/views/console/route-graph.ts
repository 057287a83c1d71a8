import type { CallRoute, RouteDestination } from '../../../api/schemas/routes.js';
import { html, type SafeHtml } from './html.js';

// A number's call route drawn as a small graph, in server-rendered SVG (no library, no
// script): the call, the decision webhook, then the IVR (each key and its action, the fallback) or
// the ring set (one box per stage, or per priority for a sequential ring), then what happens when no
// one answers. Boxes sit in rows, one row per step; each edge joins a box to the boxes of the next
// row it leads to. Every label is text (escaped); long ones are cut, with the whole in a <title>.
// With the number's last kept test run (cli.md "Calls as tests"), each box is marked covered when
// the run took every branch it stands for (named as call-branches.ts names them), else uncovered.

interface GraphNode {
  id: string;
  title: string;
  detail?: string;
  /** The branches of the route graph this box stands for (ids as `svc calls test` names them). */
  branches?: string[];
}

/** A kept test run's branches: which it took. */
export type BranchCoverage = ReadonlyArray<{ id: string; taken: boolean }>;
interface Graph {
  rows: GraphNode[][];
  edges: Array<{ from: string; to: string; label?: string }>;
}

const BOX_W = 190;
const BOX_H = 46;
const GAP_X = 20;
const GAP_Y = 44;
const MAX_CHARS = 27;

const cut = (s: string): string => (s.length > MAX_CHARS ? `${s.slice(0, MAX_CHARS - 1)}…` : s);
const destText = (d: RouteDestination): string => `${d.label ? `${d.label}: ` : ''}${d.destination}${d.enabled ? '' : ' (off)'}`;

/**
 * The answer branches of ring set `set` for these destinations: `answer:DEST`, or `answer:DEST@SET`
 * when DEST is in several sets (call-branches.ts); a disabled destination has none.
 */
const answerBranches = (set: string, destinations: RouteDestination[]): string[] =>
  destinations.filter((d) => d.enabled).flatMap((d) => [`answer:${d.destination}`, `answer:${d.destination}@${set}`]);

/** The ring set's boxes: by stage (simultaneous within a stage), or one per destination in priority order (sequential). */
function ringBoxes(prefix: string, ringMode: string, destinations: RouteDestination[]): GraphNode[] {
  if (destinations.length === 0) return [{ id: `${prefix}-none`, title: 'No destination', detail: 'the call is not rung', branches: ['noanswer:route'] }];
  if (ringMode === 'sequential') return destinations.map((d, i) => ({ id: `${prefix}-p${i}`, title: `Priority ${d.priority}`, detail: destText(d), branches: answerBranches('route', [d]) }));
  const stages = [...new Set(destinations.map((d) => d.stage))].sort((a, b) => a - b);
  return stages.map((s) => {
    const ds = destinations.filter((d) => d.stage === s);
    return { id: `${prefix}-s${s}`, title: `Stage ${s} (${ds.length} ring${ds.length === 1 ? 's' : ''})`, detail: ds.map(destText).join(', '), branches: answerBranches('route', ds) };
  });
}

export function routeGraph(number: string, route: CallRoute | null): Graph {
  const rows: GraphNode[][] = [[{ id: 'call', title: 'Inbound call', detail: number, branches: ['blocked'] }]];
  const edges: Graph['edges'] = [];
  const link = (fromRow: GraphNode[], toRow: GraphNode[], label?: (to: GraphNode, i: number) => string | undefined) => {
    for (const f of fromRow) toRow.forEach((t, i) => edges.push({ from: f.id, to: t.id, label: label?.(t, i) }));
  };
  if (!route || !route.enabled) {
    const off = [{ id: 'off', title: route ? 'Route disabled' : 'No route', detail: 'calls are not answered' }];
    link(rows[0]!, off);
    rows.push(off);
    return { rows, edges };
  }
  let last = rows[0]!;
  if (route.decisionWebhook?.enabled) {
    const hook = [{ id: 'hook', title: 'Decision webhook', detail: route.decisionWebhook.url, branches: ['decision.reject', 'decision.forward', 'decision.failopen'] }];
    link(last, hook);
    rows.push(hook);
    last = hook;
  }
  if (route.ivr?.enabled) {
    const ivr = [{ id: 'ivr', title: 'IVR menu', detail: route.ivr.greeting.text ?? 'greeting audio', branches: ['ivr.invalid', 'ivr.timeout'] }];
    link(last, ivr);
    rows.push(ivr);
    const choices = [
      ...route.ivr.keys.map((k) => ({ digit: k.digit, label: k.label, action: k.action, branch: `ivr.key:${k.digit}`, set: `key:${k.digit}` })),
      { digit: 'none', label: 'fallback', action: route.ivr.fallback, branch: 'ivr.fallback', set: 'fallback' },
    ];
    const actionRow: GraphNode[] = choices.map((c, i) => ({
      id: `key${i}`,
      title: `${c.digit === 'none' ? 'No key' : `Key ${c.digit}`}${c.label ? `: ${c.label}` : ''}`,
      detail: c.action.type === 'ring' ? `ring ${c.action.destinations.map(destText).join(', ')}` : c.action.type,
      branches: [c.branch, ...(c.action.type === 'ring' ? [...answerBranches(c.set, c.action.destinations), `noanswer:${c.set}`] : [])],
    }));
    link(ivr, actionRow);
    rows.push(actionRow);
    last = actionRow.filter((_n, i) => choices[i]!.action.type === 'ring');
  } else {
    const ring = ringBoxes('ring', route.ringMode, route.destinations);
    // Stages ring one after the other: each box leads to the next.
    rows.push(ring.slice(0, 1));
    link(last, ring.slice(0, 1));
    for (let i = 1; i < ring.length; i++) {
      rows.push([ring[i]!]);
      edges.push({ from: ring[i - 1]!.id, to: ring[i]!.id, label: 'no answer' });
    }
    last = ring.slice(-1);
    // The route's ring set rang out once its last box did.
    for (const box of last) box.branches = [...(box.branches ?? []), 'noanswer:route'];
  }
  const noAnswer: GraphNode =
    route.noAnswerAction?.type === 'forward'
      ? { id: 'fwd', title: 'Forward', detail: route.noAnswerAction.to }
      : route.voicemailEnabled || route.noAnswerAction?.type === 'voicemail'
        ? { id: 'vm', title: 'Voicemail', detail: route.voicemailGreeting ?? 'default greeting', branches: ['voicemail'] }
        : { id: 'end', title: 'Hang up' };
  if (last.length) {
    for (const f of last) edges.push({ from: f.id, to: noAnswer.id, label: 'no answer' });
    rows.push([noAnswer]);
  }
  return { rows, edges };
}

/** `covered` when the run took every branch of the box it knows, `uncovered` when it missed one; null for a box with none of the run's branches. */
function markOf(n: GraphNode, coverage: BranchCoverage | null): { covered: boolean; missed: string[] } | null {
  if (!coverage || !n.branches) return null;
  const kept = coverage.filter((b) => n.branches!.includes(b.id));
  if (kept.length === 0) return null;
  const missed = kept.filter((b) => !b.taken).map((b) => b.id);
  return { covered: missed.length === 0, missed };
}

export function routeGraphSvg(number: string, route: CallRoute | null, coverage: BranchCoverage | null = null): SafeHtml {
  const g = routeGraph(number, route);
  const widest = Math.max(...g.rows.map((r) => r.length));
  const width = widest * (BOX_W + GAP_X) + GAP_X;
  const height = g.rows.length * (BOX_H + GAP_Y) + GAP_Y / 2;
  const at = new Map<string, { x: number; y: number }>();
  g.rows.forEach((row, r) => {
    const rowWidth = row.length * (BOX_W + GAP_X) - GAP_X;
    row.forEach((n, i) => at.set(n.id, { x: (width - rowWidth) / 2 + i * (BOX_W + GAP_X), y: GAP_Y / 2 + r * (BOX_H + GAP_Y) }));
  });
  const edges = g.edges.map((e) => {
    const a = at.get(e.from)!;
    const b = at.get(e.to)!;
    const x1 = a.x + BOX_W / 2;
    const y1 = a.y + BOX_H;
    const x2 = b.x + BOX_W / 2;
    const y2 = b.y;
    return html`<line class="edge" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2 - 4}" marker-end="url(#arrow)"></line>`;
  });
  const nodes = g.rows.flat().map((n) => {
    const p = at.get(n.id)!;
    const mark = markOf(n, coverage);
    const said = mark === null ? '' : mark.covered ? ' — covered by the last test run' : ` — not covered by the last test run: ${mark.missed.join(', ')}`;
    const marked = mark === null ? '' : html` data-branches="${n.branches!.join(' ')}"`;
    return html`<g class="${mark === null ? 'node' : mark.covered ? 'node covered' : 'node uncovered'}"${marked}><title>${n.title}${n.detail ? ` — ${n.detail}` : ''}${said}</title><rect x="${p.x}" y="${p.y}" width="${BOX_W}" height="${BOX_H}" rx="6"></rect><text x="${p.x + 8}" y="${p.y + 18}" class="node-title">${cut(n.title)}</text>${n.detail ? html`<text x="${p.x + 8}" y="${p.y + 36}">${cut(n.detail)}</text>` : ''}</g>`;
  });
  const description = g.rows.map((row) => row.map((n) => `${n.title}${n.detail ? ` (${n.detail})` : ''}`).join('; ')).join(' → ');
  return html`<figure class="route-graph"><svg viewBox="0 0 ${width} ${height}" width="${width}" role="img" aria-label="${`Call route: ${description}`}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#57606a"></path></marker></defs>
${edges}${nodes}</svg></figure>`;
}
