import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NoContent } from '../../api/schemas/common.js';
import { DnsNameParams, SandboxDnsBody, SandboxDnsEntrySchema } from '../../api/schemas/email.js';
import { SANDBOX_DNS_LIMITS } from '../../api/values/email.js';
import type { ServiceDeps } from '../deps.js';
import { deleteSandboxDns, getSandboxDns, putSandboxDns } from '../domain/email/sandbox-dns.js';
import { sandboxDnsView } from '../views/domains.js';
import { ZONE_RULES_TEXT } from '../domain/email/zone-claims.js';

// contract §9: the sandbox DNS table that sending-domain checks read on the local service.

const tags = ['sandbox'];
const ENTRY = [
  'The entry: `{name, records: [{type, value}], visibleAt, propagating, updatedAt}` (`propagating` is true before `visibleAt` on the',
  'service clock). Names are case-insensitive and stored lower-case without a trailing dot; the table is the sandbox\'s whole DNS,',
  'shared by every account. Publishing or removing a name in the zone of a sending domain another account holds is',
  '403 `forbidden`: only a domain\'s owner edits its zone (reading stays open, as DNS is public). A test key may not change a name',
  'in the zone of a domain added with a live key, nor a name whose entry a live key published (403 `forbidden`, contract §2).',
  '',
  ZONE_RULES_TEXT,
].join('\n');

export function sandboxDnsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/v1/sandbox/dns/:name',
    {
      schema: {
        tags,
        summary: 'Publish DNS records for a name',
        description: [
          `\`{records: [{type: TXT|CNAME|MX, value}], visibleAfterSecs?}\` replaces the name's records (at most ${SANDBOX_DNS_LIMITS.recordsPerName}; an empty list`,
          'publishes the name with no records). Until `visibleAfterSecs` of service clock have passed (default 0, at most',
          `${SANDBOX_DNS_LIMITS.maxVisibleAfterSecs / 86_400} days) the name answers as still propagating: a domain check keeps \`pending\` for it. MX values are`,
          '`priority host` (`10 feedback.mail.svc.test`).',
          '',
          ENTRY,
        ].join('\n'),
        params: DnsNameParams,
        body: SandboxDnsBody,
        response: { 200: SandboxDnsEntrySchema },
      },
    },
    async (req) => sandboxDnsView(await deps.uow.write((tx) => putSandboxDns(tx, req.auth, req.params.name, req.body)), deps.clock.nowMs()),
  );

  r.get(
    '/v1/sandbox/dns/:name',
    {
      schema: {
        tags,
        summary: 'Read a name of the sandbox DNS table (extension, for debugging)',
        description: `An extension beyond contract §9, for debugging what a check will see. A name with no entry → 404.\n\n${ENTRY}`,
        params: DnsNameParams,
        response: { 200: SandboxDnsEntrySchema },
      },
    },
    async (req) => sandboxDnsView(await deps.uow.read((tx) => getSandboxDns(tx, req.auth, req.params.name)), deps.clock.nowMs()),
  );

  r.delete(
    '/v1/sandbox/dns/:name',
    {
      schema: {
        tags,
        summary: 'Remove a name from the sandbox DNS',
        description: 'The name then answers as missing (a domain check finds its records `missing`). A name with no entry → 404.',
        params: DnsNameParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await deps.uow.write((tx) => deleteSandboxDns(tx, req.auth, req.params.name));
      return reply.status(204).send(null);
    },
  );
}
