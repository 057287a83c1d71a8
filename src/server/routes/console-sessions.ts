import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ConsoleLinkSchema } from '../../api/schemas/console.js';
import { CONSOLE_LINK_TTL_SECS, CONSOLE_LOGIN_PATH, CONSOLE_SESSION_TTL_SECS } from '../../api/values/console.js';
import type { ServiceDeps } from '../deps.js';
import { mintConsoleLink } from '../domain/console/sessions.js';
import { requestOrigin } from '../http/origin.js';

// The console's one-time link, minted with an API key (`svc console`).
export function consoleSessionRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/v1/console/sessions',
    {
      schema: {
        tags: ['console'],
        summary: 'A one-time link that opens the console (the service\'s web pages) as this key',
        description: [
          `Any valid key. The link is good once, for ${CONSOLE_LINK_TTL_SECS} s of real time. Opening it changes nothing: the page`,
          'names the account and the key and asks; its button (a POST from the console\'s own origin only) sets an HttpOnly,',
          'SameSite=Strict session cookie (Path=/console) and redirects to a URL without the token. The session sees exactly',
          'what this key may see, acting on the account this request acted on (`Service-Subaccount` included; an agency key',
          `can switch sub-account in the console). It ends when the key is revoked (checked on every request) and ${CONSOLE_SESSION_TTL_SECS / 3600} h after`,
          'the link was opened, in real time (moving the service clock neither ends nor extends either). Sessions are stored by the service (only a hash of the cookie): a restart keeps',
          'them valid until then. The link is built on the address this request used.',
        ].join('\n'),
        response: { 201: ConsoleLinkSchema },
      },
    },
    async (req, reply) => {
      const auth = req.auth;
      const { token, expiresAt } = await deps.uow.write((tx) =>
        mintConsoleLink(tx, { keyId: auth.keyId, callerId: auth.caller.id, subaccountId: auth.viaSubaccount ? auth.account.id : null }),
      );
      return reply.status(201).send({ url: `${requestOrigin(req)}${CONSOLE_LOGIN_PATH}?token=${token}`, expiresAt: new Date(expiresAt).toISOString() });
    },
  );
}
