import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../api/schemas/common.js';
import { PortSchema, SandboxPortDecisionBody } from '../../api/schemas/ports.js';
import { PORT_TIMINGS } from '../../api/values/registration.js';
import type { ServiceDeps } from '../deps.js';
import { sandboxPortDecision } from '../domain/ports.js';
import { portView } from '../views/ports.js';

// contract §9: the losing carrier's verdict on a port, at once.
export function sandboxPortsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/sandbox/ports/:id/decision',
    {
      schema: {
        tags: ['sandbox'],
        summary: "The losing carrier's verdict on a port, at once",
        description: [
          '`{decision: approved|rejected, reason?, focDate?}` decides a `submitted` port now (the 24 h verdict then does nothing); any other',
          `status → 409. \`approved\` → \`foc_scheduled\` with \`focDate\` (ISO 8601, after the service clock; default ${PORT_TIMINGS.focDateAfterSecs / 3600} h from now),`,
          'and the port completes at that date. `rejected` → `rejected` with `rejectionReason` = `reason` (a default text when omitted).',
          '`reason` with `approved`, or `focDate` with `rejected`, is a `validation_error`. Emits `port.updated`.',
        ].join('\n'),
        params: IdParams,
        body: SandboxPortDecisionBody,
        response: { 200: PortSchema },
      },
    },
    async (req) => portView((await deps.uow.write(async (tx) => await sandboxPortDecision(tx, req.auth, req.params.id, req.body)))),
  );
}
