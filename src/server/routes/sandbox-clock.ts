import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdvanceClockBody, AdvancedClockSchema, ClockSchema } from '../../api/schemas/sandbox.js';
import type { ServiceDeps } from '../deps.js';
import { advanceClock } from '../domain/sandbox-clock.js';
import { clockView } from '../views/sandbox-clock.js';

// contract §1: GET /v1/sandbox/clock → {now}; advance moves time and runs everything that became due.
export function sandboxClockRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const state = () => clockView(deps.clock);

  r.get('/v1/sandbox/clock', { schema: { tags: ['sandbox'], summary: 'The service clock', response: { 200: ClockSchema } } }, async () => state());

  r.post(
    '/v1/sandbox/clock/advance',
    {
      // The clock is shared by every account; only the root account's live key moves it.
      config: { serviceWide: true },
      schema: {
        tags: ['sandbox'],
        summary: 'Move the service clock forward and run, in time order, everything that falls due',
        description: 'The advanced time is kept in the database: a restart continues from it (a system clock keeps its offset, a manual clock resumes where it stood). The move is permanent for this data directory. The clock is shared by every account, and an advance runs every account\'s renewals and charges: only the root account of the local service may advance it, with a live key (a sub-account\'s key, `Service-Subaccount` or a test key is `403 forbidden`: test keys move no money). `ran` lists what the advance ran, per kind of scheduled work (empty when nothing fell due).',
        body: AdvanceClockBody,
        response: { 200: AdvancedClockSchema },
      },
    },
    async (req) => {
      const ran = await advanceClock(deps, req.body.seconds);
      return { ...state(), ran };
    },
  );
}
