// How a route is shown (cli.md "Routes as code", `routes get`): on a terminal (or `-o table`) a
// summary; `-o yaml` the document (the PUT body, so it round-trips through `apply`); `-o json` and
// the other formats the API's wrapper as it came. Run modules only (loads yaml and the table code).
import type { CliContext } from '../../context.js';
import { printResource, renderList, resolveFormat } from '../../../output/formatters.js';
import { writeAndDrain } from '../../../output/io.js';
import type { CallRoute, IvrAction, RouteDestination } from '../../../api/schemas/routes.js';
import { renderYaml, routeToDocument } from './document.js';

const onOff = (b: boolean) => (b ? 'on' : 'off');
const quoted = (s: string) => JSON.stringify(s);
const textOrAudio = (o: { text: string | null; audioUrl: string | null }) =>
  [o.text !== null ? quoted(o.text) : null, o.audioUrl !== null ? `audio ${o.audioUrl}` : null].filter(Boolean).join(', ');

const ringRows = (ds: readonly RouteDestination[]) =>
  ds.map((d) => ({
    stage: d.stage,
    priority: d.priority,
    type: d.destinationType,
    destination: d.destination,
    label: d.label ?? '',
    timeout: `${d.ringTimeoutSecs}s`,
    enabled: d.enabled ? 'yes' : 'no',
  }));

const actionText = (a: IvrAction): string =>
  a.type === 'ring' ? `ring (${a.ringMode}): ${a.destinations.map((d) => d.label ?? d.destination).join(', ')}` : a.type;

/** The readable summary: settings, the ring set as a table, the IVR as a tree. */
export async function renderRouteSummary(ctx: CliContext, number: string, route: CallRoute | null): Promise<string> {
  if (route === null) return `${number} has no call route; write one with \`svc routes edit ${number}\` or \`svc routes apply ${number} -f FILE\`\n`;
  const settings: Array<[string, string]> = [
    ['route', route.enabled ? 'enabled' : 'disabled'],
    ['ring mode', route.ringMode],
    ['caller id', route.callerIdMode],
    ['recording', onOff(route.recordCalls) + (route.recordingNotice ? `, notice ${textOrAudio(route.recordingNotice)}` : '')],
    ['live transcription', onOff(route.liveTranscription)],
    [
      'voicemail',
      onOff(route.voicemailEnabled) +
        (route.voicemailGreeting !== null ? `, greeting ${quoted(route.voicemailGreeting)}` : '') +
        (route.voicemailGreetingAudioUrl !== null ? `, audio ${route.voicemailGreetingAudioUrl}` : ''),
    ],
    ['no answer', route.noAnswerAction === null ? '-' : route.noAnswerAction.type === 'forward' ? `forward to ${route.noAnswerAction.to}` : 'voicemail'],
    ['outbound ring timeout', route.outboundRingTimeoutSecs === null ? '-' : `${route.outboundRingTimeoutSecs}s`],
    ['decision webhook', route.decisionWebhook === null ? '-' : `${route.decisionWebhook.enabled ? 'on' : 'off'}, ${route.decisionWebhook.url} (${route.decisionWebhook.timeoutMs} ms)`],
  ];
  const width = Math.max(...settings.map(([k]) => k.length));
  let out = `Call route of ${number}\n`;
  out += settings.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n') + '\n\nRing set\n';
  out += route.destinations.length ? await renderList(ctx.io, ringRows(route.destinations), { format: 'table' }) : '  (none)\n';
  if (route.ivr) {
    const ivr = route.ivr;
    out += `\nIVR (${ivr.enabled ? 'enabled' : 'disabled'}): greeting ${textOrAudio(ivr.greeting)}; digit timeout ${ivr.digitTimeoutSecs}s, ${ivr.invalidRetries} retries\n`;
    const branches = [...ivr.keys.map((k) => `${k.digit}${k.label !== null ? ` ${k.label}` : ''} → ${actionText(k.action)}`), `fallback → ${actionText(ivr.fallback)}`];
    out += branches.map((b, i) => `  ${i === branches.length - 1 ? '└─' : '├─'} ${b}`).join('\n') + '\n';
  }
  return out;
}

/** A route response (`{route, features}` from GET, `{route}` from PUT) in the format asked for. */
export async function printRoute(ctx: CliContext, number: string, wrapper: { route: CallRoute | null }): Promise<void> {
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  if (format === 'table') return writeAndDrain(ctx.io.stdout, await renderRouteSummary(ctx, number, wrapper.route));
  if (format === 'yaml') return writeAndDrain(ctx.io.stdout, wrapper.route === null ? '' : await renderYaml(routeToDocument(wrapper.route)));
  await printResource(ctx.io, wrapper, { format: ctx.outputFormat });
}
