import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CallCoverageBody, CallCoverageSchema, CallEvaluationBatchBody, CallEvaluationBatchSchema, CallEvaluationBody, CallEvaluationSchema } from '../../api/schemas/call-tests.js';
import { NumberIdParams } from '../../api/schemas/numbers.js';
import { CALL_EVALUATION, SANDBOX_TALK_SECS_DEFAULT, VOICEMAIL_DEFAULT_SECS } from '../../api/values/calls.js';
import type { ServiceDeps } from '../deps.js';
import { evaluateCall, evaluateCalls } from '../domain/voice/call-evaluation.js';
import { keepCallCoverage, lastCallCoverage } from '../domain/voice/call-coverage.js';
import { callCoverageView, callEvaluationView } from '../views/call-tests.js';
import { PURE_POST } from '../http/idempotency.js';
import { ID_NOTE } from './numbers.js';

const BRANCHES = [
  '`branches` lists every branch of the route graph in graph order, named as `svc calls test` names them, and only what the route has:',
  '`blocked` (always); with an enabled decision webhook `decision.reject`, `decision.forward`, `decision.failopen` (the webhook timed out, failed or',
  'answered anything else: the normal route runs); with an enabled IVR `ivr.key:D` per key, `ivr.invalid` (while a key is not on the menu),',
  '`ivr.timeout`, `ivr.fallback`; per ring set that can ring — the route\'s own (`route`, when no IVR answers first), IVR key D\'s (`key:D`), the',
  'fallback\'s (`fallback`) — `answer:DEST` per enabled destination (E.164, SIP URI or device id; `DEST@SET` when it is in several ring sets) and',
  '`noanswer:SET` (it rang out); `voicemail` when a path leads to it. A disabled route has only `blocked`.',
].join('\n');

const EVALUATE_DESCRIPTION = [
  'Our extension (local service only, contract §6 "Call evaluation"): runs the call engine — the one that runs every call — on virtual time, with',
  'the outside world scripted by the body, and answers how the call ends, its trace and the branches of the route graph it took. No call, event,',
  'charge, recording or outbound request is made and nothing is stored (an `Idempotency-Key` is checked for form only: a retry is answered',
  'afresh), so the same body over the same account gives the same answer. Either key may evaluate.',
  '',
  '`numberId` (a voice number of the account, by id or E.164): the call is to it and its saved route runs; `route` (a `PUT /v1/numbers/{id}/route`',
  'body) runs instead of it, checked as that PUT checks it — every problem at once, 400 `validation_error` with details under `["body","route",…]` —',
  'and never saved (with `numberId`, it keeps the number\'s uploaded voicemail greeting). One of the two is required (400 on `["body","numberId"]`).',
  `With \`route\` alone the call is to ${CALL_EVALUATION.routeOnlyTo}. The account's blocked numbers apply either way. Another account's number is 404`,
  '`not_found`, a released one 409 `conflict`, one without voice 422 `channel_unsupported`.',
  '',
  `The script: \`from\` (default ${CALL_EVALUATION.defaultFrom}); \`digits\`, the key pressed at each menu prompt in order (\`""\` stays silent: the`,
  `prompt times out; past the list the caller is silent); \`answer\`, who picks up after how many seconds of ringing (a destination or its label;`,
  `a leg named nowhere rings out; the answered call talks ${SANDBOX_TALK_SECS_DEFAULT} s); \`decision\`, the decision webhook's answer (\`{status, body}\` or`,
  `\`{timeout: true}\`; absent: it times out); \`hangupAfterSecs\`, when the caller hangs up. A voicemail records ${VOICEMAIL_DEFAULT_SECS} s unless the caller hangs`,
  'up first. A softphone device a route rings counts as online (who answers is the script\'s to say). The trace is a call\'s trace with `atSecs`',
  '(seconds from the call\'s start) for `at`; ids in it (`vm_evaluation1`, an inline route\'s `dst_evaluation1`) are numbered, not minted.',
  '',
  BRANCHES,
].join('\n');

const BATCH_DESCRIPTION = [
  'Our extension (local service only), for runs of many tests (`svc calls test`, svc/testing): up to',
  `${CALL_EVALUATION.maxBatch} scripted calls to one target in one request. Decision: \`/evaluate\` answers one call, and a run of 1,000 tests paced`,
  "by the key's rate limit (contract §2: 100 requests/s, burst 200) took about 8 s whatever the machine; this request counts once against it.",
  '',
  '`numberId` and `route` are `/evaluate`\'s, read (and an inline route checked, every problem at once under `["body","route",…]`) once for',
  "the batch; `calls` are `/evaluate`'s scripts (its body without `numberId` and `route`). `data[i]` is exactly what `/evaluate` answers for",
  'the target with `calls[i]`, in the order of `calls`: the same engine, the same numbered ids, nothing stored (an `Idempotency-Key` is',
  "checked for form only). Errors are `/evaluate`'s, once for the whole batch: a bad call is 400 `validation_error` on",
  '`["body","calls",i,…]` and no call runs; another account\'s number 404 `not_found`, a released one 409, one without voice 422.',
].join('\n');

const COVERAGE_RULES = [
  'Our extension (local service only, cli.md "Calls as tests"): the last run\'s coverage of a number\'s tests, kept for the console\'s route graph.',
  '`svc calls test` PUTs it once a file\'s tests have run (each evaluation stores nothing); a number keeps only its last. Either key may keep it: it',
  'records a test run, not a change to the number. A released number is 409 `conflict`.',
  ID_NOTE,
].join('\n');

// contract §6 (call evaluation), cli.md "Calls as tests".
export function sandboxCallTestsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/sandbox/calls/evaluate',
    {
      config: PURE_POST,
      schema: { tags: ['sandbox'], summary: 'Evaluate a scripted call against a route, storing nothing (extension)', description: EVALUATE_DESCRIPTION, body: CallEvaluationBody, response: { 200: CallEvaluationSchema } },
    },
    async (req) => callEvaluationView(await evaluateCall(deps, req.auth, req.body)),
  );

  r.post(
    '/v1/sandbox/calls/evaluate-batch',
    {
      config: PURE_POST,
      schema: { tags: ['sandbox'], summary: 'Evaluate many scripted calls to one target, storing nothing (extension)', description: BATCH_DESCRIPTION, body: CallEvaluationBatchBody, response: { 200: CallEvaluationBatchSchema } },
    },
    async (req) => ({ data: (await evaluateCalls(deps, req.auth, req.body, req.body.calls)).map(callEvaluationView) }),
  );

  r.put(
    '/v1/sandbox/numbers/:id/call-coverage',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Keep the last test run's coverage of a number's route (extension)",
        description: [COVERAGE_RULES, '', 'The body is the run\'s: which route was tested (`saved` or a `file`), how many tests ran and passed, and every branch with whether a test took it (each id once). Answers the coverage kept, `covered`, `total` and `percent` worked out.'].join('\n'),
        params: NumberIdParams,
        body: CallCoverageBody,
        response: { 200: CallCoverageSchema },
      },
    },
    async (req) => callCoverageView(await deps.uow.write(async (tx) => await keepCallCoverage(tx, req.auth, req.params.id, req.body))),
  );

  r.get(
    '/v1/sandbox/numbers/:id/call-coverage',
    {
      schema: {
        tags: ['sandbox'],
        summary: "The last test run's coverage of a number's route (extension)",
        description: `${COVERAGE_RULES}\nBefore the first run: 404 \`not_found\`.`,
        params: NumberIdParams,
        response: { 200: CallCoverageSchema },
      },
    },
    async (req) => callCoverageView(await deps.uow.read(async (tx) => await lastCallCoverage(tx, req.auth, req.params.id))),
  );
}
