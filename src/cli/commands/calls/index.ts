import { defineVerb } from '../../verb.js';
import { plainList } from '../../plain-verbs.js';
import { callEndpoints, callList } from '../../../api/resources/calls.js';
import { sandboxCallEndpoints } from '../../../api/resources/sandbox-calls.js';
import { CALL_DIRECTIONS, CALL_STATUSES } from '../../../api/values/calls.js';
import { CALL_LIST_COLUMNS } from './columns.js';
import { SIMULATE_DETAILS, SIMULATE_FLAGS } from './simulate-flags.js';
import { REPORTERS } from './test-flags.js';

// svc calls: contract §6 (calls, trace, recording, transfer) and §9 (sandbox calls).
const ID_ARG = { name: 'id', help: 'call id (call_…)', complete: 'calls' } as const;

export const verbs = [
  plainList({
    summary: 'List calls, newest first',
    endpoint: callList,
    noun: 'calls',
    columns: CALL_LIST_COLUMNS,
    // csv: every column from the first page on (a first page of unanswered calls has no answeredBy).
    completeColumns: true,
    filters: [
      { flags: '--status <status>', help: CALL_STATUSES.join(', '), choices: CALL_STATUSES },
      { flags: '--direction <direction>', help: 'inbound or outbound', choices: CALL_DIRECTIONS },
    ],
    examples: ['svc calls list', 'svc calls list --status missed --direction inbound', 'svc calls list --all -o csv > calls.csv'],
  }),
  defineVerb({
    name: 'get',
    summary: 'Show one call; with --trace, every decision the call engine took',
    args: [ID_ARG],
    flags: [{ flags: '--trace', help: 'one line per step: time, step, detail (blocklist, decision webhook, IVR, legs, answer, voicemail, events)', default: false }],
    details: 'With --trace and -o json or yaml: the call with its trace in "trace"; -o csv: the steps as rows.',
    examples: ['svc calls get call_HxC5aVo9f9KUCgco8UWG', 'svc calls get call_HxC5aVo9f9KUCgco8UWG --trace', 'svc calls get call_HxC5aVo9f9KUCgco8UWG --trace -o json'],
    api: callEndpoints.get,
    run: async () => (await import('./get.run.js')).runGetCall,
  }),
  defineVerb({
    name: 'recording',
    summary: "Download a call's recording (WAV); only calls answered on a route with recordCalls on have one",
    args: [ID_ARG],
    flags: [{ flags: '-O, --out <file>', help: 'write the audio to this file (- for stdout)', local: {} }],
    details: `Without -O the audio goes to stdout when stdout is not a terminal (a pipe or a redirect); on a
terminal it is written to <id>.wav in the current directory, and the path is printed on stderr.
A call that was not recorded: exit 4 (not_found).`,
    examples: ['svc calls recording call_HxC5aVo9f9KUCgco8UWG -O call.wav', 'svc calls recording call_HxC5aVo9f9KUCgco8UWG > call.wav'],
    // Bytes, not JSON: a file is written.
    changes: true,
    api: callEndpoints.recording,
    run: async () => (await import('./recording.run.js')).runCallRecording,
  }),
  defineVerb({
    name: 'transfer',
    summary: 'Hand a connected call to a softphone device or an external number',
    args: [ID_ARG],
    flags: [{ flags: '--to <target>', help: 'an E.164 number, or one of your softphone devices (dev_…)', required: true }],
    details: 'Only a call in progress can be transferred; any other call: exit 5 (conflict).',
    examples: ['svc calls transfer call_HxC5aVo9f9KUCgco8UWG --to +14155550123', 'svc calls transfer call_HxC5aVo9f9KUCgco8UWG --to dev_QsPrEIJNI9Llw4pbfp1w'],
    changes: true,
    api: callEndpoints.transfer,
    run: async () => (await import('./transfer.run.js')).runTransferCall,
  }),
  defineVerb({
    name: 'press',
    summary: 'Sandbox: the caller presses keys on a call under way (what the console\'s dial pad does)',
    args: [ID_ARG, { name: 'digits', help: 'the keys, in order: one or more of 0-9, * and #' }],
    details: `The keys go where a simulated call's --digits go: the IVR reads them one per menu prompt, in
order. The step they cause runs on the service clock (with a manual clock: at the next advance).
Local service only. A call no longer under way, or past its menu: exit 5 (conflict).`,
    examples: ['svc calls press call_HxC5aVo9f9KUCgco8UWG 2', 'svc calls press call_HxC5aVo9f9KUCgco8UWG "1#"'],
    changes: true,
    api: sandboxCallEndpoints.digits,
    run: async () => (await import('./caller.run.js')).runPressKeys,
  }),
  defineVerb({
    name: 'hangup',
    summary: 'Sandbox: the caller hangs up a call under way',
    args: [ID_ARG],
    details: 'Local service only. A call no longer under way: exit 5 (conflict).',
    examples: ['svc calls hangup call_HxC5aVo9f9KUCgco8UWG'],
    changes: true,
    api: sandboxCallEndpoints.hangup,
    run: async () => (await import('./caller.run.js')).runHangUp,
  }),
  defineVerb({
    name: 'simulate',
    summary: 'Sandbox: place an inbound call and watch the call engine run it, step by step',
    flags: SIMULATE_FLAGS,
    details: SIMULATE_DETAILS,
    examples: [
      'svc calls simulate --to +14155550100 --from +14155550123',
      'svc calls simulate --to +14155550100 --from +14155550123 --answer first --after 5s --duration 30s',
      'svc calls simulate --to +14155550100 --from +14155550123 --digits 2 --answer dev_QsPrEIJNI9Llw4pbfp1w --fast-forward',
      'svc calls simulate --to +14155550100 --from +14155550123 --no-wait -o ids',
    ],
    changes: true,
    api: sandboxCallEndpoints.place,
    run: async () => (await import('./simulate.run.js')).runSimulate,
  }),
  defineVerb({
    name: 'test',
    summary: "Sandbox: run scripted callers against a number's route and report which of its branches they covered",
    args: [{ name: 'file', help: 'a test file (YAML; - for standard input); several run one after another', variadic: true, local: { content: 'document' } }],
    flags: [
      { flags: '--min-coverage <pct>', help: 'exit 1 when a file covers less of its route, in percent (default 0)', json: 'number' },
      { flags: '--reporter <name>', help: 'pretty (default), json (as -o json) or junit (XML for CI)', choices: REPORTERS },
    ],
    details: `A test file names a number of the account (id or E.164: its saved route and the blocked list),
optionally a route document to test instead (route: FILE, relative to the test file, as
\`routes get -o yaml\` writes it, or that document inline as a mapping; never saved; a file read
from standard input has no place for route: FILE to be relative to, so its route is inline), and tests:
  tests:
    - name: sales picks up
      from: "+14155550123"              default +15005550100
      press: ["1"]                      the key at each menu prompt, in order; "" stays silent
      answer: { "+14155550198": 5s }    who picks up (E.164, device id or label), after how long
      decision: { status: 200, body: { action: reject } }   the decision webhook's answer
                                        ({ timeout: true }, the default: it does not answer)
      hangupAfter: 40s                  the caller hangs up then
      expect: { status: completed, outcome: voicemail, answeredBy: "+14155550198",
                trace: ["ivr.key 1", "answered +14155550198"] }   steps in this order, each a
                                        step name and text its detail contains
Each test is one evaluation of the call engine on virtual time: no call is saved, charged, emitted
or sent, and the same file gives the same traces. Prints ✓ or ✗ per test (a failure: the first
expectation not met and the trace as it ran), then coverage: N of M branches (P%) and an
uncovered: line per branch no test took. Branches: blocked; decision.reject|forward|failopen;
ivr.key:D, ivr.invalid, ivr.timeout, ivr.fallback; answer:DEST and noanswer:SET per ring set
(route, key:D, fallback); voicemail. -o json (or --reporter json): {tests, coverage} (an array of
them for several files). The run's coverage is kept as the number's last (the console shows it).
Exit 0 when every test passed and each file's coverage reaches --min-coverage, 1 otherwise, 2 for
a file error (named by file and line). Local service only.`,
    examples: [
      'svc calls test front-desk.test.yaml',
      'svc calls test calls/*.test.yaml --min-coverage 100',
      'svc calls test front-desk.test.yaml --reporter junit > calls-junit.xml',
    ],
    // It keeps the run's coverage on the service. As a tool of svc mcp it takes the test document's
    // text (`document`), which has no file for route: FILE to be relative to: its route is inline.
    changes: true,
    api: sandboxCallEndpoints.evaluateBatch,
    run: async () => (await import('./test.run.js')).runCallTests,
  }),
];
