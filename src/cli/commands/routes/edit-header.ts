// The comments `routes edit` writes above the document: the fields and their bounds, every number
// and choice read from api/values/routes.ts (the one place they are written). Run modules only.
import { CALLER_ID_MODES, DESTINATION_TYPES, RING_MODES, ROUTE_LIMITS as L } from '../../../api/values/routes.js';

const range = (b: { min: number; max: number }, unit = '') => `${b.min}-${b.max}${unit}`;
const withDefault = (b: { min: number; max: number; default: number }, unit = '') => `${range(b, unit)} (default ${b.default})`;
const oneOf = (values: readonly string[]) => values.join('|');

export function editHeader(number: string): string[] {
  return [
    `Call route of ${number}, edited with \`svc routes edit\`. Lines starting with # are ignored.`,
    'Save and quit to send it (the change is shown and confirmed first). Saved unchanged: nothing is',
    'sent. Saved empty: cancelled. The keys are the API\'s PUT body: an omitted field takes its',
    'default and an omitted object is cleared.',
    '',
    `enabled: true|false (default true)    ringMode: ${oneOf(RING_MODES)} (default ${RING_MODES[0]})`,
    `callerIdMode: ${oneOf(CALLER_ID_MODES)} (default ${CALLER_ID_MODES[0]})`,
    'recordCalls, liveTranscription, voicemailEnabled: true|false (default false)',
    `voicemailGreeting: text, 1-${L.voicemailGreetingMax} characters`,
    `destinations: ${range(L.routeDestinations)} entries, rung by position (the first is the primary); each:`,
    `  destinationType: ${oneOf(DESTINATION_TYPES)}   destination: ${range(L.destination, ' characters')} (E.164, sip: URI or device id)`,
    `  label: 1-${L.labelMax} characters   stage: ${withDefault(L.stage)}   ringTimeoutSecs: ${withDefault(L.ringTimeoutSecs)}   enabled`,
    'noAnswerAction: {type: voicemail} or {type: forward, to: E.164}',
    `outboundRingTimeoutSecs: ${range(L.ringTimeoutSecs)}`,
    `recordingNotice: {text: 1-${L.recordingNoticeTextMax} characters, audioUrl: http(s) URL}, one or both`,
    `ivr: enabled, greeting {text: 1-${L.ivrGreetingTextMax} characters, audioUrl}, digitTimeoutSecs: ${withDefault(L.digitTimeoutSecs)},`,
    `     invalidRetries: ${withDefault(L.invalidRetries)}, keys: ${range(L.ivrKeys)} of {digit: 0-9 * #, label, action}, fallback: action (default voicemail)`,
    `  action: {type: ring, ringMode, destinations: ${range(L.ivrRingDestinations)} entries} | {type: voicemail} | {type: repeat}`,
    `decisionWebhook: {enabled, url: http(s) URL, timeoutMs: ${withDefault(L.decisionWebhookTimeoutMs)}}`,
    `URLs: at most ${L.urlMax} characters.`,
  ].map((l) => (l ? `# ${l}` : '#'));
}

/** The commented template for a number with no route yet. */
export const ROUTE_TEMPLATE = [
  '# This number has no call route yet. Remove the # of the lines you want, for example:',
  '# destinations:',
  '#   - destinationType: pstn',
  '#     destination: "+14155550100"',
  '#     label: Front desk',
  '# voicemailEnabled: true',
  '# voicemailGreeting: Sorry we missed you. Leave a message.',
];
