import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SandboxCallBody } from '../../../api/schemas/calls.js';
import { CONSOLE_PATH } from '../../../api/values/console.js';
import { DIGITS_PATTERN } from '../../../api/values/calls.js';
import { getRoute } from '../../domain/voice/routes.js';
import { keptCallCoverage } from '../../domain/voice/call-coverage.js';
import { callCoverageView } from '../../views/call-tests.js';
import { placeSandboxCall } from '../../domain/voice/calls.js';
import { hangUpCaller, pressCallerKeys } from '../../domain/voice/sandbox-caller.js';
import { listNumbers } from '../../domain/numbers.js';
import { callRecording, getCall, listCalls, voicemailAudio } from '../../domain/voice/calls.js';
import { requestOrigin } from '../../http/origin.js';
import { routeResponseView } from '../../views/routes.js';
import { callTraceView, callView } from '../../views/calls.js';
import { callMain, callsMain, numberMain } from '../../views/console/voice.js';
import { shellWord } from '../../views/console/html.js';
import { renderNumbers } from '../numbers.js';
import { parseWith } from './gate.js';
import { CursorQuery, IdParam, PAGE_LIMIT, form, gated, type ConsoleKit } from './kit.js';

// A number and its route (the graph beside the YAML), calls with their trace, and the
// audio of a recording or a voicemail for the page's players, all read as the session's key. On the
// local service, the phone: a sandbox call placed from the calls page (POST /v1/sandbox/calls's domain
// function), then the call's page has a dial pad whose keys reach its IVR, and a hang-up button.

const PhoneForm = z.object({ from: z.string().max(100), to: z.string().max(100) });
const KeyForm = z.object({ digit: z.string().length(1, 'one key: 0-9, * or #').regex(DIGITS_PATTERN, 'one key: 0-9, * or #') });
const PressedQuery = z.object({ pressed: z.string().max(1).optional(), hungUp: z.string().max(1).optional() });

export function consoleVoicePages({ c, deps, page }: ConsoleKit): void {
  c.get('/numbers/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { actor } = req.console;
    // The route and the last kept test run of its calls, in one read.
    const { state, coverage } = await deps.uow.read(async (tx) => {
      const state = await getRoute(tx, actor, id);
      return { state, coverage: await keptCallCoverage(tx, state.number.id) };
    });
    const [number] = await renderNumbers(deps, [state.number]);
    return page(req, reply, {
      title: `Number ${number!.phoneNumber}`,
      section: 'numbers',
      command: `svc routes get ${shellWord(number!.id)} -o yaml`,
      main: numberMain(number!, routeResponseView(state.record, (name) => `${requestOrigin(req)}/media/${name}`), coverage && callCoverageView(coverage)),
    });
  });

  /** The account's numbers a sandbox call can ring (the phone's "to"), on the local service only. */
  const phoneNumbers = async (req: FastifyRequest): Promise<string[] | null> => {
    if (!deps.options.sandbox) return null;
    const p = await deps.uow.read((tx) => listNumbers(tx, req.console.actor, {}, 100));
    return p.data.filter((n) => n.status !== 'released' && n.capabilities.voice).map((n) => n.phoneNumber);
  };

  c.get('/calls', gated, async (req, reply) => {
    const { cursor } = parseWith(CursorQuery, 'query', req.query);
    const p = await deps.uow.read((tx) => listCalls(tx, req.console.actor, {}, PAGE_LIMIT, cursor));
    return page(req, reply, { title: 'Calls', section: 'calls', command: 'svc calls list', main: callsMain(p.data.map(callView), p.hasMore ? p.nextCursor : null, await phoneNumbers(req), req.console.standing.session.csrf) });
  });
  c.get('/calls/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { pressed, hungUp } = parseWith(PressedQuery, 'query', req.query);
    const call = await deps.uow.read((tx) => getCall(tx, req.console.actor, id));
    // The phone's keys and hang-up, while a sandbox caller is on the line.
    const phone = deps.options.sandbox && call.direction === 'inbound' && call.endedAt === null ? { csrf: req.console.standing.session.csrf, manualClock: deps.clock.mode === 'manual' } : null;
    const flash = pressed ? `Pressed ${pressed}.` : hungUp ? 'You hung up.' : undefined;
    return page(req, reply, { title: `Call ${call.id}`, section: 'calls', command: `svc calls get ${shellWord(call.id)}`, main: callMain(callView(call), callTraceView(call), phone, flash) });
  });

  if (deps.options.sandbox) {
    c.post('/calls', form, async (req, reply) => {
      const fields = parseWith(PhoneForm, 'body', { from: (req.body as Record<string, string>).from ?? '', to: (req.body as Record<string, string>).to ?? '' });
      const body = parseWith(SandboxCallBody, 'body', fields);
      // The simulated caller's faults apply to the phone's calls as to the API's.
      const withChaos = { ...body, scenario: deps.chaos.callScenario(req.console.actor.account, body.from, body.to, body.scenario) };
      const call = await deps.uow.write((tx) => placeSandboxCall(tx, req.console.actor, withChaos, { origin: requestOrigin(req) }));
      return reply.code(303).header('Location', `${CONSOLE_PATH}/calls/${encodeURIComponent(call.id)}`).send();
    });
    c.post('/calls/:id/keys', form, async (req, reply) => {
      const { id } = parseWith(IdParam, 'params', req.params);
      const { digit } = parseWith(KeyForm, 'body', { digit: (req.body as Record<string, string>).digit ?? '' });
      await deps.uow.write((tx) => pressCallerKeys(tx, req.console.actor, id, digit));
      return reply.code(303).header('Location', `${CONSOLE_PATH}/calls/${encodeURIComponent(id)}?pressed=${encodeURIComponent(digit)}`).send();
    });
    c.post('/calls/:id/hangup', form, async (req, reply) => {
      const { id } = parseWith(IdParam, 'params', req.params);
      await deps.uow.write((tx) => hangUpCaller(tx, req.console.actor, id));
      return reply.code(303).header('Location', `${CONSOLE_PATH}/calls/${encodeURIComponent(id)}?hungUp=1`).send();
    });
  }
  // Audio for the page's players, read as the session's key (the API's recording and voicemail audio).
  c.get('/calls/:id/recording.wav', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    return reply.type('audio/wav').header('Cache-Control', 'no-store').send(await deps.uow.read((tx) => callRecording(tx, req.console.actor, id)));
  });
  c.get('/voicemails/:id/audio.wav', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    return reply.type('audio/wav').header('Cache-Control', 'no-store').send(await deps.uow.read((tx) => voicemailAudio(tx, req.console.actor, id)));
  });

}
