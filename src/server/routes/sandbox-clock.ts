import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdvanceClockBody, ClockSchema } from '../../api/schemas/sandbox.js';
import type { ServiceDeps } from '../deps.js';
import { iso, saveClock } from '../clock.js';
import { CLOCK_STATE_KEY, ServiceStateRepo } from '../storage/service-state-repo.js';

// contract §1: GET /v1/sandbox/clock → {now}; advance moves time and runs everything that became due.
export function sandboxClockRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const state = () => ({ now: iso(deps.clock.nowMs()), mode: deps.clock.mode });

  r.get('/v1/sandbox/clock', { schema: { tags: ['sandbox'], summary: 'The service clock', response: { 200: ClockSchema } } }, async () => state());

  r.post(
    '/v1/sandbox/clock/advance',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Move the service clock forward and run, in time order, everything that falls due',
        description: 'The advanced time is kept in the database: a restart continues from it (a system clock keeps its offset, a manual clock resumes where it stood).',
        body: AdvanceClockBody,
        response: { 200: ClockSchema },
      },
    },
    async (req) => {
      await deps.scheduler.advance(req.body.seconds);
      // Service time never goes back, not even across a restart (contract §1).
      new ServiceStateRepo(deps.db).set(CLOCK_STATE_KEY, saveClock(deps.clock));
      return state();
    },
  );
}
