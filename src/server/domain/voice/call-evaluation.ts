import type { DomainDeps, ReadDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import type { CallEvaluationBody, CallScriptBody } from '../../../api/schemas/call-tests.js';
import type { CallRoute, RouteDestination } from '../../../api/schemas/routes.js';
import { CALL_EVALUATION, SANDBOX_TALK_SECS_DEFAULT } from '../../../api/values/calls.js';
import { ServiceError, validationError } from '../../errors.js';
import { getRoute, buildRoute } from './routes.js';
import { withGreeting } from './call-runner.js';
import { runToEnd, startCall, type BlockEntry, type CallEngineDeps, type CallState, type DecisionReply, type DeviceInfo } from './call-engine.js';
import { branchesTaken, routeGraph } from './call-branches.js';

// contract §6 (call evaluation, extension, local service only); cli.md "Calls as tests". The call
// engine (call-engine.ts, the one the call runner drives) runs a call to its end on virtual time
// with the outside world scripted by the request: who picks up and when, the keys pressed, the
// decision webhook's answer, the hang-up. What it reads of the account (the number, its route and
// greeting, the blocked list, the devices a route rings) is read once, before the engine runs; the
// engine's deps then answer from that, so nothing is written, emitted, charged, recorded or sent,
// and the same request over the same account answers the same: the call starts at virtual time 0,
// and its ids (the recording's, the voicemail's, an inline route's destinations) are numbered.
// A batch (evaluate-batch, our extension) reads that once for all its calls, then runs each call
// exactly as a single evaluation runs it, so each answer is the one /evaluate gives.

/** The id the evaluated call goes by in its trace and the engine's events (none of them is kept). */
const EVALUATION_CALL_ID = 'call_evaluation';
const EVALUATION_ROUTE_ID = 'rte_evaluation';

/** What the engine's evaluation gives: its final state and every branch of the route graph. */
export interface EvaluatedCall {
  state: CallState;
  branches: Array<{ id: string; taken: boolean }>;
}

/** Where the calls go: a number of the account (its saved route), a route document, or both. */
type CallTarget = Pick<CallEvaluationBody, 'numberId' | 'route'>;

/** What the evaluation reads of the account before the engine runs. */
interface World {
  numberId: string;
  to: string;
  route: CallRoute | null;
  /** The account's blocked-list entry per caller of the calls evaluated (none: not blocked). */
  blocked: ReadonlyMap<string, BlockEntry>;
  devices: ReadonlyMap<string, DeviceInfo>;
}

/** POST /v1/sandbox/calls/evaluate. Reads in one read; runs the engine with no transaction open. */
export async function evaluateCall(deps: Pick<DomainDeps, 'uow' | 'transcriber'>, actor: Actor, body: CallEvaluationBody): Promise<EvaluatedCall> {
  return (await evaluateCalls(deps, actor, body, [body]))[0]!;
}

/**
 * POST /v1/sandbox/calls/evaluate-batch: the target read (and an inline route checked) once for all
 * the calls, then each call run on its own engine, in order.
 */
export async function evaluateCalls(deps: Pick<DomainDeps, 'uow' | 'transcriber'>, actor: Actor, target: CallTarget, calls: readonly CallScriptBody[]): Promise<EvaluatedCall[]> {
  if (target.numberId === undefined && target.route === undefined) {
    throw validationError(['body', 'numberId'], "give numberId (its saved route runs), route (a route document), or both");
  }
  const world = await deps.uow.read((tx) => readWorld(tx, actor, target, calls));
  const evaluated: EvaluatedCall[] = [];
  for (const call of calls) evaluated.push(await runScripted(deps, actor, world, call));
  return evaluated;
}

/** One scripted call to its end: its own ids, numbered from 1, and virtual time from 0. */
async function runScripted(deps: Pick<DomainDeps, 'transcriber'>, actor: Actor, world: World, body: CallScriptBody): Promise<EvaluatedCall> {
  let minted = 0;
  const engine: CallEngineDeps = {
    blocklist: { find: async (_account, phoneNumber) => (phoneNumber === body.from ? (world.blocked.get(body.from) ?? null) : null) },
    devices: { find: async (_account, deviceId) => world.devices.get(deviceId) ?? null },
    decisions: { decide: async (_account, _request, target) => scriptedDecision(body.decision, target.timeoutMs) },
    transcriber: deps.transcriber,
    newId: (prefix) => `${prefix}_evaluation${++minted}`,
  };
  const state = startCall({
    callId: EVALUATION_CALL_ID,
    accountId: actor.account.id,
    numberId: world.numberId,
    from: body.from,
    to: world.to,
    startedAt: 0,
    route: world.route,
    scenario: {
      answer: null,
      digits: '',
      machine: false,
      hangupAfterSecs: body.hangupAfterSecs ?? null,
      pickups: Object.entries(body.answer).map(([who, afterSecs]) => ({ who, afterSecs, durationSecs: SANDBOX_TALK_SECS_DEFAULT })),
      presses: body.digits,
    },
  });
  const run = await runToEnd(engine, state);
  return { state: run.state, branches: branchesTaken(routeGraph(world.route), run.took ?? []) };
}

async function readWorld(tx: ReadDeps, actor: Actor, body: CallTarget, calls: readonly CallScriptBody[]): Promise<World> {
  const accountId = actor.account.id;
  // A released number is a 409 as its route's GET is; another account's, not_found.
  const saved = body.numberId === undefined ? null : await getRoute(tx, actor, body.numberId);
  const number = saved?.number ?? null;
  if (number && !number.capabilities.voice) {
    // As a sandbox call to it answers (domain/voice/calls.ts placeSandboxCall).
    throw new ServiceError('channel_unsupported', `${number.phoneNumber} cannot receive calls: the number has no voice capability`, [
      { path: ['body', 'numberId'], message: 'no voice capability' },
    ]);
  }
  let route: CallRoute | null;
  if (body.route !== undefined) {
    // contract §6: checked as a PUT route is (every problem at once, each named under body.route).
    // Decision: §6 writes "422 with details", but a PUT route answers 400 validation_error and the
    // spec's error table fixes validation_error at 400 (the status always matches the code): 400.
    let ids = 0;
    const built = await buildRoute(tx, actor, body.route, EVALUATION_ROUTE_ID, { at: ['body', 'route'], mintId: (prefix) => `${prefix}_evaluation${++ids}` });
    // The route document a PUT would save keeps the number's uploaded greeting.
    route = withGreeting(built, saved?.record.greetingMedia ?? null);
  } else {
    route = saved?.record.route ? withGreeting(saved.record.route, saved.record.greetingMedia) : null;
  }
  // The blocked list is the account's: it rejects a caller whatever number is called.
  const blocked = new Map<string, BlockEntry>();
  for (const from of new Set(calls.map((c) => c.from))) {
    const entry = await tx.blockedNumbers.findByNumber(accountId, from);
    if (entry) blocked.set(from, { id: entry.id, autoSuggested: entry.autoSuggested });
  }
  const devices = new Map<string, DeviceInfo>();
  for (const d of webrtcDestinations(route)) {
    const device = await tx.devices.get(accountId, d.destination);
    // Presence is live state that ages by the minute; who answers is the test's to say, so a device
    // of the account rings as an online one whose heartbeat never goes stale.
    if (device) devices.set(device.id, { id: device.id, userId: device.userId, presence: 'online', lastSeenAt: Number.POSITIVE_INFINITY });
  }
  return {
    numberId: number?.id ?? '',
    to: number?.phoneNumber ?? CALL_EVALUATION.routeOnlyTo,
    route,
    blocked,
    devices,
  };
}

function webrtcDestinations(route: CallRoute | null): RouteDestination[] {
  if (!route) return [];
  const actions = route.ivr ? [...route.ivr.keys.map((k) => k.action), route.ivr.fallback] : [];
  return [...route.destinations, ...actions.flatMap((a) => (a.type === 'ring' ? a.destinations : []))].filter((d) => d.destinationType === 'webrtc');
}

/** The decision webhook as the request scripts it; absent, it does not answer within its timeout (cli.md). */
function scriptedDecision(decision: CallScriptBody['decision'], timeoutMs: number): DecisionReply {
  if (decision === undefined || 'timeout' in decision) {
    return { kind: 'failure', reason: 'timeout', detail: 'no answer scripted', latencyMs: timeoutMs };
  }
  return { kind: 'response', status: decision.status, body: decision.body ?? null, latencyMs: 0 };
}
