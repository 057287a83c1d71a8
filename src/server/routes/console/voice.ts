import { getRoute } from '../../domain/voice/routes.js';
import { callRecording, getCall, listCalls, voicemailAudio } from '../../domain/voice/calls.js';
import { requestOrigin } from '../../http/origin.js';
import { routeResponseView } from '../../views/routes.js';
import { callTraceView, callView } from '../../views/calls.js';
import { callMain, callsMain, numberMain } from '../../views/console/voice.js';
import { shellWord } from '../../views/console/html.js';
import { renderNumbers } from '../numbers.js';
import { parseWith } from './gate.js';
import { CursorQuery, IdParam, PAGE_LIMIT, gated, type ConsoleKit } from './kit.js';

// issue 27: a number and its route (the graph beside the YAML), calls with their trace, and the
// audio of a recording or a voicemail for the page's players, all read as the session's key.

export function consoleVoicePages({ c, deps, page }: ConsoleKit): void {
  c.get('/numbers/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const { actor } = req.console;
    const state = await deps.uow.read((tx) => getRoute(tx, actor, id));
    const [number] = await renderNumbers(deps, [state.number]);
    return page(req, reply, {
      title: `Number ${number!.phoneNumber}`,
      section: 'numbers',
      command: `svc routes get ${shellWord(number!.id)} -o yaml`,
      main: numberMain(number!, routeResponseView(state.record, (name) => `${requestOrigin(req)}/media/${name}`)),
    });
  });

  c.get('/calls', gated, async (req, reply) => {
    const { cursor } = parseWith(CursorQuery, 'query', req.query);
    const p = await deps.uow.read((tx) => listCalls(tx, req.console.actor, {}, PAGE_LIMIT, cursor));
    return page(req, reply, { title: 'Calls', section: 'calls', command: 'svc calls list', main: callsMain(p.data.map(callView), p.hasMore ? p.nextCursor : null) });
  });
  c.get('/calls/:id', gated, async (req, reply) => {
    const { id } = parseWith(IdParam, 'params', req.params);
    const call = await deps.uow.read((tx) => getCall(tx, req.console.actor, id));
    return page(req, reply, { title: `Call ${call.id}`, section: 'calls', command: `svc calls get ${shellWord(call.id)}`, main: callMain(callView(call), callTraceView(call)) });
  });
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
