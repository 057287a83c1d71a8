import type { FastifyInstance } from 'fastify';
import { CHAOS_DEFAULTS, CHAOS_EXEMPT_HEADER } from '../../api/values/chaos.js';
import { delayMs, type Chaos } from '../world/chaos.js';
import { sendError } from './error-handler.js';

/** What chaos never touches: the test's own controls (the sandbox), the health check and the API document. */
const SPARED = /^\/(v1\/sandbox\/|healthz$|openapi\.json$|media\/|p\/)/;

/**
 * The API's faults, in one hook right after authentication: 429 with Retry-After, 502,
 * or a slow answer, as the profile that applies to the request's account says (contract §9: the
 * account acted on, a sub-account through `Service-Subaccount`; a request with no key, a public
 * page's or the console's, is not the API's and meets none). A request's stable id is its method
 * and path (without the query), numbered by occurrence, so a retry is a new chance (`GET /v1/messages#2`).
 */
export function installChaosHook(app: FastifyInstance, chaos: Chaos): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!chaos.anyActive || chaos.exempts(req.headers[CHAOS_EXEMPT_HEADER])) return;
    const account = req.auth?.account;
    if (!account) return;
    const path = req.url.split('?')[0]!;
    if (SPARED.test(path)) return;
    const run = chaos.forAccount(account);
    if (!run?.active) return;
    const id = run.occurrence(`${req.method} ${path}`);
    const refused = run.roll(['api.429', 'api.502'], id);
    if (refused?.kind === 'api.429') {
      const retryAfter = refused.fault.retryAfterSecs ?? CHAOS_DEFAULTS.retryAfterSecs;
      chaos.record(account.id, refused, { method: req.method, path, status: 429, retryAfterSecs: retryAfter });
      reply.header('Retry-After', String(retryAfter));
      return sendError(reply, 'rate_limited', `too many requests; retry after ${retryAfter}s (injected by the chaos profile)`);
    }
    if (refused?.kind === 'api.502') {
      chaos.record(account.id, refused, { method: req.method, path, status: 502 });
      return sendError(reply, 'provider_error', 'the upstream provider failed (injected by the chaos profile)');
    }
    const slow = run.roll(['api.slow'], id);
    if (slow) {
      chaos.record(account.id, slow, { method: req.method, path, delayMs: delayMs(slow.fault) });
      await new Promise((r) => setTimeout(r, delayMs(slow.fault)));
    }
  });
}
