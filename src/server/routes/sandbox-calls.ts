import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CallSchema, SandboxCallBody } from '../../api/schemas/calls.js';
import { VOICEMAIL_DEFAULT_SECS } from '../../api/values/calls.js';
import type { ServiceDeps } from '../deps.js';
import { placeSandboxCall } from '../domain/voice/calls.js';
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

// contract §9: the outside world for voice — an inbound call.
export function sandboxCallsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/sandbox/calls',
    { config: COMMITS_ONCE, schema: { tags: ['sandbox'], summary: 'An inbound call to one of the account\'s numbers', description: SANDBOX_CALL_DESCRIPTION, body: SandboxCallBody, response: { 201: CallSchema } } },
    async (req, reply) => {
      // issue 29: the simulated caller's faults (nobody answers, the call drops) change its scenario only.
      const body = { ...req.body, scenario: deps.chaos.callScenario(req.body.from, req.body.to, req.body.scenario) };
      const placed = await commitOnce(deps, req, 201, async (tx) => callView(await placeSandboxCall(tx, req.auth, body, { origin: requestOrigin(req) })));
      return reply.status(201).send(placed);
    },
  );
}
