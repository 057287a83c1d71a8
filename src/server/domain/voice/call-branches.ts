import type { CallRoute, IvrAction, RouteDestination } from '../../../api/schemas/routes.js';
import { IVR_DIGITS } from '../../../api/values/routes.js';
import type { BranchMark } from './call-engine.js';

// contract §6 (call evaluation: `branches`), cli.md "Calls as tests": the branches of a route graph,
// named from the route document, and only what the route has (a branch no call can take would keep
// a complete test file from reaching 100 %):
//   blocked                                    the caller is on the blocked list (every route)
//   decision.reject|forward|failopen           an enabled decision webhook (failopen: the normal
//                                              route runs, whatever sent the call down it)
//   ivr.key:D, ivr.invalid, ivr.timeout,       an enabled IVR (ivr.invalid only while some key is
//   ivr.fallback                               not on the menu)
//   answer:DEST, noanswer:SET                  per ring set that can ring: the route's own (`route`,
//                                              when no IVR answers first), IVR key D's (`key:D`), the
//                                              fallback's (`fallback`); DEST each enabled destination
//                                              (E.164, SIP URI or device id), `DEST@SET` when the same
//                                              destination is in several ring sets
//   voicemail                                  when some path leads to it
// The engine marks what a call took (call-engine.ts `BranchMark`); `name` gives each mark its id.

interface RingSetNode {
  name: string;
  destinations: RouteDestination[];
}

export interface RouteGraph {
  /** Every branch, in graph order. */
  ids: string[];
  /** The id of a branch the engine took. */
  name(mark: BranchMark): string;
}

export function routeGraph(route: CallRoute | null): RouteGraph {
  const ids: string[] = ['blocked'];
  const sets: RingSetNode[] = [];
  /** In how many ring sets each destination is: one in several is named per set. */
  const inSets = new Map<string, number>();
  let reachesNoAnswer = false;
  let voicemail = false;
  // The engine runs nothing of a missing or disabled route, not even its decision webhook.
  if (route?.enabled) {
    if (route.decisionWebhook?.enabled) ids.push('decision.reject', 'decision.forward', 'decision.failopen');
    const ivr = route.ivr?.enabled ? route.ivr : null;
    if (ivr) {
      for (const k of ivr.keys) ids.push(`ivr.key:${k.digit}`);
      if (ivr.keys.length < IVR_DIGITS.length) ids.push('ivr.invalid');
      ids.push('ivr.timeout', 'ivr.fallback');
      const action = (a: IvrAction, name: string) => {
        if (a.type === 'ring') {
          sets.push({ name, destinations: a.destinations });
          reachesNoAnswer = true;
        } else if (a.type === 'voicemail') voicemail = true;
      };
      for (const k of ivr.keys) action(k.action, `key:${k.digit}`);
      action(ivr.fallback, 'fallback');
      // A `repeat` fallback goes on to the no-answer action (call-engine.ts ivrAction).
      if (ivr.fallback.type === 'repeat') reachesNoAnswer = true;
    } else {
      sets.push({ name: 'route', destinations: route.destinations });
      reachesNoAnswer = true;
    }
    for (const s of sets) for (const d of new Set(s.destinations.filter((x) => x.enabled).map((x) => x.destination))) inSets.set(d, (inSets.get(d) ?? 0) + 1);
    for (const s of sets) {
      // A disabled destination is never dialed (contract §6): no answer can come from it.
      for (const d of new Set(s.destinations.filter((x) => x.enabled).map((x) => x.destination))) ids.push(answerId(d, s.name, inSets));
      ids.push(`noanswer:${s.name}`);
    }
    // spec: Call route — noAnswerAction; null: voicemail when enabled, else it rings out.
    const noAnswer = route.noAnswerAction;
    if (reachesNoAnswer && (noAnswer?.type === 'voicemail' || (noAnswer === null && route.voicemailEnabled))) voicemail = true;
    if (voicemail) ids.push('voicemail');
  }
  return {
    ids,
    name(mark) {
      switch (mark.kind) {
        case 'decision':
          return `decision.${mark.action}`;
        case 'ivr.key':
          return `ivr.key:${mark.digit}`;
        case 'answer':
          return answerId(mark.destination, mark.set, inSets);
        case 'noanswer':
          return `noanswer:${mark.set}`;
        default:
          return mark.kind;
      }
    },
  };
}

const answerId = (destination: string, set: string, inSets: ReadonlyMap<string, number>): string =>
  (inSets.get(destination) ?? 0) > 1 ? `answer:${destination}@${set}` : `answer:${destination}`;

/** Every branch of the graph, each with whether one of the marks took it. */
export function branchesTaken(graph: RouteGraph, took: readonly BranchMark[]): Array<{ id: string; taken: boolean }> {
  const taken = new Set(took.map((m) => graph.name(m)));
  return graph.ids.map((id) => ({ id, taken: taken.has(id) }));
}
