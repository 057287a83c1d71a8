import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RegistrationBody, RegistrationSchema } from '../../api/schemas/registrations.js';
import type { ServiceDeps } from '../deps.js';
import { register } from '../domain/registration/registrations.js';
import { brandView } from '../views/brands.js';
import { campaignView } from '../views/campaigns.js';
import { commitOnce } from '../http/idempotency.js';

// contract §7: the combined registration (the draft and predict routes live in registration-tools.ts).

export function registrationsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/registrations',
    {
      schema: {
        tags: ['registration'],
        summary: 'Register a brand and its first campaign at once',
        description:
          '201 `{brand, campaign}`, both or neither: a validation failure of either part creates nothing. The brand is registered as by `POST /v1/brands`; the campaign starts `draft` and is submitted by itself when its brand is approved (at once for a mock brand, whose campaign is then decided at once); a rejected brand leaves it `draft` (resubmit the brand). Live keys pay the brand and, for a non-mock brand, the campaign registration prices now. The brand has no `complianceUrls` here (read it with `GET /v1/brands/{id}`).',
        body: RegistrationBody,
        response: { 201: RegistrationSchema },
      },
    },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => {
        const { brand, campaign } = await register(tx, req.auth, req.body);
        return { brand: brandView(brand), campaign: campaignView(campaign) };
      });
      return reply.status(201).send(created);
    },
  );
}
