import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContent } from '../../api/schemas/common.js';
import { BillingSchema, SandboxWalletBody } from '../../api/schemas/billing.js';
import type { ServiceDeps } from '../deps.js';
import { getBilling, sandboxFailNextPayment, sandboxSetBalance } from '../domain/billing/billing.js';
import { billingView } from '../views/billing.js';

// contract §9: the payment provider failing once, and a wallet set to a balance.
export function sandboxBillingRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sandbox'];

  r.post(
    '/v1/sandbox/payments/fail-next',
    {
      // The payment provider is shared by every account; only the root account's live key breaks it.
      config: { serviceWide: true },
      schema: {
        tags,
        summary: 'The payment provider fails the next card charge, once',
        description: [
          'The next card charge of the service (any account: a top-up, an auto-recharge, a subscription) fails with',
          '`502 provider_error` and credits nothing; the one after succeeds again. Kept in the service\'s database: armed through one',
          'replica of a service on PostgreSQL, it fails the next charge whichever replica makes it.',
          'Only the root account of the local service may arm it, with a live key (a sub-account\'s key, `Service-Subaccount`',
          'or a test key is `403 forbidden`: test keys move no money).',
        ].join('\n'),
        response: { 204: NoContent },
      },
    },
    async (_req, reply) => {
      await sandboxFailNextPayment(deps);
      return reply.status(204).send(null);
    },
  );

  r.put(
    '/v1/sandbox/wallet',
    {
      schema: {
        tags,
        summary: "Set the caller's wallet balance",
        description: [
          'Writes one ledger row (a `credit` or a `charge`, cause `sandbox`) for the difference, so the ledger still sums to the',
          'balance; not usage. To watch sends refused with `402 payment_required`, or a low-balance crossing. Answers the Billing.',
          'The balance is live money: a live key only (a test key is `403 forbidden`: test keys move no money). Each account',
          'sets its own wallet (a sub-account with its own live key, or through `Service-Subaccount`).',
        ].join('\n'),
        body: SandboxWalletBody,
        response: { 200: BillingSchema },
      },
    },
    async (req) => {
      await deps.uow.write((tx) => sandboxSetBalance(tx, req.auth, req.body.balanceCents));
      // Read after the write's outside acts (an auto-recharge at the crossing): the Billing as it stands.
      return billingView(await deps.uow.write((tx) => getBilling(tx, req.auth)));
    },
  );
}
