import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ChaosLogSchema, ChaosProfileSchema, ChaosScopeQuery } from '../../api/schemas/chaos.js';
import { CHAOS_FAULT_KINDS, type ChaosScope } from '../../api/values/chaos.js';
import { assertMayActServiceWide } from '../domain/test-keys.js';
import { chaosProfileOf, putChaosProfile } from '../domain/chaos-profiles.js';
import { SERVICE_SCOPE } from '../world/chaos.js';
import type { AuthContext } from '../http/auth.js';
import type { ServiceDeps } from '../deps.js';

const KINDS = CHAOS_FAULT_KINDS.map((k) => `\`${k}\``).join(', ');

/** contract §9: which profile applies, written once for the three routes' descriptions. */
const SCOPES = [
  'Scopes (`?scope=`): `account` (the default) is the profile of the account acted on: the key\'s, or a sub-account\'s through',
  '`Service-Subaccount`. `service` is the service-wide one (`svc server start --chaos FILE` sets it as the service starts).',
  'What applies to a request, a message, an email, a webhook attempt or a call is the profile of its account if it has one, else its',
  'agency\'s (an agency\'s profile acts on its sub-accounts), else the service-wide one: the most specific profile with a fault in it',
  'wins whole (a profile whose rates are all 0 applies to nothing). Nothing set by one account acts on its sibling or its agency.',
  'Stored with the service\'s data: every process on a shared database (replicas, the worker) applies it.',
].join('\n');

/** The scope's key among the stored profiles: the account acted on, or the service-wide one. */
const scopeKey = (auth: AuthContext, scope: ChaosScope): string => (scope === 'service' ? SERVICE_SCOPE : auth.account.id);

// Seeded chaos on the local service (world/chaos.ts), changed while it runs.
export function sandboxChaosRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/sandbox/chaos',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'A chaos profile: the account\'s own, or the service-wide one',
        description: [
          'The seeded faults stored for the scope (`{seed: 0, faults: {}}`: none): `account`, the account\'s own profile only (not its',
          'agency\'s, nor the service-wide one, which `?scope=service` shows). Any key of the local service.',
          SCOPES,
        ].join('\n'),
        querystring: ChaosScopeQuery,
        response: { 200: ChaosProfileSchema },
      },
    },
    async (req) => deps.uow.read(async (tx) => await chaosProfileOf(tx, scopeKey(req.auth, req.query.scope))),
  );

  r.put(
    '/v1/sandbox/chaos',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Replace a chaos profile: seeded faults of the simulated world, for the account or service-wide',
        description: [
          `\`{seed, faults: {KIND: {rate, delayMs?, delaySecs?, retryAfterSecs?, afterSecs?, reason?}}}\`, KIND one of ${KINDS}.`,
          'Whether a chance becomes a fault depends only on the seed, the kind and a stable id of what it hits (the request\'s method and path, a',
          'live message\'s sender, recipient and text, an email recipient and subject, a webhook\'s URL and event type, a call\'s caller and number),',
          'numbered by occurrence within the profile: the same seed and the same requests give the same faults, whatever the interleaving. Faults',
          'are injected at the simulated world\'s seams only: the carrier (live messages: failed or undelivered with a reason, the final receipt',
          'late, a stale receipt after it), the mail server (deferred then delivered, hard-bounced, accepted late; service-clock seconds), webhook',
          'attempts (sent late or twice), sandbox calls (nobody answers, or dropped `afterSecs` in), and the API (429 with `Retry-After`, 502',
          '`provider_error`, or answered `delayMs` late; requests with a key only: `/v1/sandbox/*`, `/healthz`, `/openapi.json`, public pages',
          'and the console are spared, so a test can always see and change its chaos).',
          SCOPES,
          'A new profile starts its occurrence counts again; the log is kept. `{seed: 0, faults: {}}` removes the scope\'s profile (the next one',
          'out then applies). `account`: any key of the account, test keys too (contract §2: it acts on that account only, nothing service-wide).',
          '`service`: only the root account\'s live key, without `Service-Subaccount`; any other is `403 forbidden`. A bad profile is',
          '`validation_error` naming the field; nothing changes. On PostgreSQL the answer comes once every other process on the database',
          'has read the profile; a worker beside an API process on one SQLite file reads it at its next look at the file (every 25 ms).',
        ].join('\n'),
        querystring: ChaosScopeQuery,
        body: ChaosProfileSchema,
        response: { 200: ChaosProfileSchema },
      },
    },
    async (req) => {
      // contract §2, §9: the service-wide profile changes the world for every account on the service.
      if (req.query.scope === 'service') assertMayActServiceWide(req.auth.caller, req.auth.mode, req.auth.viaSubaccount);
      const scope = scopeKey(req.auth, req.query.scope);
      await deps.uow.write(async (tx) => await putChaosProfile(tx, scope, req.body));
      await deps.chaos.refresh();
      // The other replicas have read it too before the answer (PostgreSQL: they hear of it by notice).
      await deps.store.peers.sync();
      return deps.uow.read(async (tx) => await chaosProfileOf(tx, scope));
    },
  );

  r.get(
    '/v1/sandbox/chaos/log',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'The faults chaos injected on the account\'s requests and records, oldest first',
        description: [
          '`{data: [{seq, at, kind, id, detail}]}`: `at` is service time, `id` the stable id the roll was keyed by (`…#n`: its n-th occurrence),',
          '`detail` what was done (the message id and status, the delay, the Retry-After…). Only the account acted on\'s own entries (the key\'s,',
          'or a sub-account\'s through `Service-Subaccount`): the faults its own requests, messages, emails, webhook attempts and calls met,',
          'whichever profile injected them; never another account\'s, an agency\'s sub-accounts\' included. Kept in memory by the process that',
          'injected them (the newest 10,000 per account), emptied by svc/testing `reset()` and a restart.',
        ].join('\n'),
        response: { 200: ChaosLogSchema },
      },
    },
    async (req) => ({ data: [...deps.chaos.logOf(req.auth.account.id)] }),
  );
}
