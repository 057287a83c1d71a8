import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CallSchema, SandboxCallBody, SandboxCallDigitsBody } from '../../api/schemas/calls.js';
import { IdParams } from '../../api/schemas/common.js';
import { SANDBOX_CALL_LIMITS, VOICEMAIL_DEFAULT_SECS } from '../../api/values/calls.js';
import type { ServiceDeps } from '../deps.js';
import { placeSandboxCall } from '../domain/voice/calls.js';
import { hangUpCaller, pressCallerKeys } from '../domain/voice/sandbox-caller.js';
import { callView } from '../views/calls.js';
import { COMMITS_ONCE, commitOnce } from '../http/idempotency.js';
import { requestOrigin } from '../http/origin.js';

const SANDBOX_CALL_DESCRIPTION = [
  'An inbound call from `from` to one of the account\'s numbers (contract §9). Answers 201 with the Call, status `ringing`; the call engine then runs',
  'on the service clock as durable steps (with a manual clock, `POST /v1/sandbox/clock/advance` walks it through its timeouts; a restart resumes it):',
  'blocklist → decision webhook → recording notice → IVR → ring set → answered or not (contract §6). `GET /v1/calls/{id}/trace` shows every decision.',
  '`to` must be a number the account owns and has not released, else 400 `validation_error` on `["body","to"]` (as `POST /v1/sandbox/inbound-messages`',
  'answers the same case), with the `voice` capability, else 422 `channel_unsupported` on `["body","to"]`. The route is the number\'s route as the call',
  'opens (a later PUT does not change a call in progress).',
  '',
  '`scenario` (all optional): `answer` `{destinationId?, deviceId?, afterSecs (0), durationSecs (30)}` or null (nobody answers) — the leg named (or the',
  'first dialed leg, or a forwarded one) answers after `afterSecs` of ringing if that is shorter than its ring timeout, and talks `durationSecs`;',
  '`digits` — the IVR keys the caller presses, one per menu prompt; `machine` — a machine picks up a forwarded leg and nobody presses 1 (outcome',
  `\`voicemail\`); \`hangupAfterSecs\` — the caller hangs up that long after the call started. A voicemail lasts ${VOICEMAIL_DEFAULT_SECS} s unless the caller hangs up first.`,
  'The decision webhook is signed with the secret of the account\'s enabled webhook endpoint of the same origin (the newest); without one it is not',
  'sent and the call fails open. A call placed with a test key records no usage. The `recordingUrl` of `voicemail.received` is an absolute URL on the',
  'address this request used.',
].join('\n');

/** What the caller's acts during a call share (the console's phone uses the same domain calls). */
const CALLER_ACT_RULES = [
  'Our extension (local service only, like every `/v1/sandbox` route): what the caller of a call placed with `POST /v1/sandbox/calls` does while it is under way,',
  'as the console\'s phone does. Answers 200 with the Call as the act leaves it; the engine runs the step it causes next, on the service clock, as it',
  'runs the call\'s other steps (with a manual clock, at the next `POST /v1/sandbox/clock/advance`), and `GET /v1/calls/{id}/trace` shows it. A call no longer under way (ended, or not',
  'a sandbox call) answers 409 `conflict`. Another account\'s call is 404 `not_found`. A test key acts only on a call placed with a test key (contract §2:',
  'a test key changes only what a test key created), else 403 `forbidden`. Nothing changes on a refusal.',
].join('\n');

const DIGITS_DESCRIPTION = [
  CALLER_ACT_RULES,
  '',
  `\`{digits}\`: the keys pressed, in order, one or more of 0-9, \`*\` and \`#\` (at most ${SANDBOX_CALL_LIMITS.maxDigits}), else 400 \`validation_error\` on \`["body","digits"]\`.`,
  'Keys go where the scenario\'s `digits` go (contract §9: the IVR reads them one per menu prompt, in order): pressed before the menu, they are read at its',
  'prompt; while the menu waits for a key, the first is read at once (`ivr.key`, or `ivr.invalid` for a key not on the menu) and the rest at the prompts',
  `that follow. 409 \`conflict\` once the menu is behind the call (a key then reaches no one), or when the call would have had more than ${SANDBOX_CALL_LIMITS.maxDigits} keys`,
  'with its scenario\'s.',
].join('\n');

const HANGUP_DESCRIPTION = [
  CALLER_ACT_RULES,
  '',
  'No body. The caller hangs up: an answered call ends `completed`; during its voicemail, the message is kept (`voicemail.received`); before an answer,',
  'the call ends `missed`. The trace gains a `hangup` step.',
].join('\n');

// contract §9: the outside world for voice — an inbound call.
export function sandboxCallsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/sandbox/calls',
    { config: COMMITS_ONCE, schema: { tags: ['sandbox'], summary: 'An inbound call to one of the account\'s numbers', description: SANDBOX_CALL_DESCRIPTION, body: SandboxCallBody, response: { 201: CallSchema } } },
    async (req, reply) => {
      // The simulated caller's faults (nobody answers, the call drops) change its scenario only.
      const body = { ...req.body, scenario: deps.chaos.callScenario(req.auth.account, req.body.from, req.body.to, req.body.scenario) };
      const placed = await commitOnce(deps, req, 201, async (tx) => callView(await placeSandboxCall(tx, req.auth, body, { origin: requestOrigin(req) })));
      return reply.status(201).send(placed);
    },
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/sandbox/calls/:id/digits',
    { config: COMMITS_ONCE, schema: { tags: ['sandbox'], summary: 'The caller presses keys during a sandbox call (extension)', description: DIGITS_DESCRIPTION, params: IdParams, body: SandboxCallDigitsBody, response: { 200: CallSchema } } },
    async (req) => commitOnce(deps, req, 200, async (tx) => callView(await pressCallerKeys(tx, req.auth, req.params.id, req.body.digits))),
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/sandbox/calls/:id/hangup',
    { config: COMMITS_ONCE, schema: { tags: ['sandbox'], summary: 'The caller hangs up a sandbox call (extension)', description: HANGUP_DESCRIPTION, params: IdParams, response: { 200: CallSchema } } },
    async (req) => commitOnce(deps, req, 200, async (tx) => callView(await hangUpCaller(tx, req.auth, req.params.id))),
  );
}
