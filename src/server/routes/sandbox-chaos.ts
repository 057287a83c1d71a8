import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ChaosLogSchema, ChaosProfileSchema } from '../../api/schemas/chaos.js';
import { CHAOS_FAULT_KINDS } from '../../api/values/chaos.js';
import type { ServiceDeps } from '../deps.js';

const KINDS = CHAOS_FAULT_KINDS.map((k) => `\`${k}\``).join(', ');

// issue 29: seeded chaos on the local service (world/chaos.ts), changed while it runs.
export function sandboxChaosRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/sandbox/chaos',
    { schema: { tags: ['sandbox'], summary: 'The chaos profile in force', description: 'The seeded faults the simulated world injects (`{seed: 0, faults: {}}`: none). Any key of the local service.', response: { 200: ChaosProfileSchema } } },
    async () => deps.chaos.profile,
  );

  r.put(
    '/v1/sandbox/chaos',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Replace the chaos profile: seeded faults of the simulated world',
        description: [
          `\`{seed, faults: {KIND: {rate, delayMs?, delaySecs?, retryAfterSecs?, afterSecs?, reason?}}}\`, KIND one of ${KINDS}.`,
          'Whether a chance becomes a fault depends only on the seed, the kind and a stable id of what it hits (the request\'s method and path, a',
          'live message\'s sender, recipient and text, an email recipient and subject, a webhook\'s URL and event type, a call\'s caller and number),',
          'numbered by occurrence: the same seed and the same requests give the same faults, whatever the interleaving. Faults are injected at the',
          'simulated world\'s seams only: the carrier (live messages: failed or undelivered with a reason, the final receipt late, a stale receipt',
          'after it), the mail server (deferred then delivered, hard-bounced, accepted late; service-clock seconds), webhook attempts (sent late or',
          'twice), sandbox calls (nobody answers, or dropped `afterSecs` in), and the API (429 with `Retry-After`, 502 `provider_error`, or',
          'answered `delayMs` late; `/v1/sandbox/*`, `/healthz` and `/openapi.json` are spared, so a test can always see and change its chaos).',
          'A new profile starts the occurrence counts again; the log is kept. `{seed: 0, faults: {}}` turns chaos off. Any key of the local',
          'service (test keys too: chaos exists only here). A bad profile is `validation_error` naming the field; nothing changes.',
        ].join('\n'),
        body: ChaosProfileSchema,
        response: { 200: ChaosProfileSchema },
      },
    },
    async (req) => {
      deps.chaos.setProfile(req.body);
      return deps.chaos.profile;
    },
  );

  r.get(
    '/v1/sandbox/chaos/log',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Every fault chaos injected, oldest first',
        description: '`{data: [{seq, at, kind, id, detail}]}`: `at` is service time, `id` the stable id the roll was keyed by (`…#n`: its n-th occurrence), `detail` what was done (the message id and status, the delay, the Retry-After…). Kept in memory (the newest 10,000), emptied by svc/testing `reset()` and a restart.',
        response: { 200: ChaosLogSchema },
      },
    },
    async () => ({ data: [...deps.chaos.log] }),
  );
}
