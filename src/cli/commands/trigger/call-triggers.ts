import { defineVerb, longFlag, type AnyVerb, type FlagDef } from '../../verb.js';
import { sandboxCallEndpoints } from '../../../api/resources/sandbox-calls.js';
import { ANSWER_FIRST, SIMULATE_DETAILS, SIMULATE_FLAGS } from '../calls/simulate-flags.js';

// contract §9 (sandbox calls) and the Event catalog's `call.*` and `voicemail.received`: every call
// event comes from a sandbox inbound call, so each of these triggers is `svc calls simulate` with
// the scenario that causes its event as the flags' defaults (any flag may still be given).

/** The simulate flags with some defaults changed. */
const withDefaults = (defaults: Record<string, string>): FlagDef[] =>
  SIMULATE_FLAGS.map((f) => (defaults[longFlag(f.flags)] === undefined ? f : { ...f, default: defaults[longFlag(f.flags)] }));

const callTrigger = (name: string, summary: string, cause: string, defaults: Record<string, string>, example: string): AnyVerb =>
  defineVerb({
    name,
    summary,
    flags: withDefaults(defaults),
    details: `${cause}\n\n${SIMULATE_DETAILS}`,
    examples: [example],
    changes: true,
    api: sandboxCallEndpoints.place,
    run: async () => (await import('../calls/simulate.run.js')).runSimulate,
  });

const TO_FROM = '--to +14155550100 --from +14155550123';

/** `svc trigger call`: the same command as `svc calls simulate`. */
export const callTriggerDefinition = callTrigger(
  'call',
  'An inbound call to one of your numbers, run by the call engine (the same command as svc calls simulate)',
  'The scenario is yours: who answers and when, the IVR keys pressed, a machine, an early hang-up.',
  {},
  `svc trigger call ${TO_FROM} --answer ${ANSWER_FIRST} --after 5s`,
);

export const callRingingTrigger = callTrigger(
  'call.ringing',
  'call.ringing: a call to a number whose route rings a softphone device (one event per device leg)',
  'Needs a route with a softphone destination (webrtc, a device id) whose device is online\n(svc softphone devices presence <id> online). Nobody answers unless --answer says so.',
  {},
  `svc trigger call.ringing ${TO_FROM}`,
);

export const callCompletedTrigger = callTrigger(
  'call.completed',
  'call.completed: an answered call that ends (the first leg that rings answers, by default)',
  `--answer defaults to "${ANSWER_FIRST}": the first leg that rings answers at once and talks 30 s.`,
  { '--answer': ANSWER_FIRST },
  `svc trigger call.completed ${TO_FROM} --duration 10s`,
);

export const callMissedTrigger = callTrigger(
  'call.missed',
  'call.missed: a call nobody answers (outcome voicemail when the route captures one)',
  'Nobody answers: every leg rings out, then the route\'s no-answer action runs.',
  {},
  `svc trigger call.missed ${TO_FROM}`,
);

export const callKeyPressedTrigger = callTrigger(
  'call.ivr.key_pressed',
  'call.ivr.key_pressed: the caller presses a key on a number whose route has an IVR',
  '--digits defaults to 1: the caller presses 1 at the first menu prompt.',
  { '--digits': '1' },
  `svc trigger call.ivr.key_pressed ${TO_FROM} --digits 2`,
);

export const callTranscriptTrigger = callTrigger(
  'call.transcript',
  'call.transcript: an answered call on a route that records calls (recordCalls on)',
  `The transcript follows the recording after the call ends; --answer defaults to "${ANSWER_FIRST}".`,
  { '--answer': ANSWER_FIRST },
  `svc trigger call.transcript ${TO_FROM} --fast-forward`,
);

export const callTranscriptDeltaTrigger = callTrigger(
  'call.transcript.delta',
  'call.transcript.delta: an answered call on a route with live transcription on (liveTranscription)',
  `Interim and final results stream while the call is bridged; --answer defaults to "${ANSWER_FIRST}".\nThey are not durable: webhooks get them (svc webhooks listen), the events feed does not,\nso they show here as trace steps, not in the events list.`,
  { '--answer': ANSWER_FIRST },
  `svc trigger call.transcript.delta ${TO_FROM} --duration 20s --fast-forward`,
);

export const voicemailReceivedTrigger = callTrigger(
  'voicemail.received',
  'voicemail.received: a missed call on a route with voicemail on (after its call.missed)',
  'Nobody answers and the route captures a voicemail (voicemailEnabled, or noAnswerAction voicemail);\n--hangup-after ends the message early.',
  {},
  `svc trigger voicemail.received ${TO_FROM} --hangup-after 40s`,
);
