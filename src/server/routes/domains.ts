import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams, NoContent } from '../../api/schemas/common.js';
import { CreateDomainBody, DomainSchema, ListDomainsQuery } from '../../api/schemas/email.js';
import { DOMAIN_CHECK_SCHEDULE, DOMAIN_RECORD_FORMATS, DOMAIN_TIMINGS, MAIL_HOST } from '../../api/values/email.js';
import type { ServiceDeps } from '../deps.js';
import { createDomain, deleteDomain, getDomain, listDomains, verifyDomain, EXPIRED_STATUS } from '../domain/email/domains.js';
import { domainView } from '../views/domains.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';
import { ZONE_RULES_TEXT } from '../domain/email/zone-claims.js';

// contract §8 (domains); spec: Sending domain, Sending domain status, Email domains endpoints. The
// decisions are in the descriptions, so they land in /openapi.json.

const tags = ['domains'];
const f = DOMAIN_RECORD_FORMATS;
const s = DOMAIN_CHECK_SCHEDULE;

const RECORDS = [
  'Records to publish (`purpose`, `type`, `name` → `value`); `dmarc` is recommended (its `status` is reported, it never blocks):',
  `- verification: TXT \`${f.verificationName('<domain>')}\` → \`${f.verificationValue('<token>')}\` (a token per domain)`,
  `- spf: TXT \`${f.returnPathName('<domain>')}\` → \`${f.spfValue}\` (on the return-path subdomain)`,
  `- dkim: CNAME \`${f.dkimName('<selector>', '<domain>')}\` → \`${f.dkimTarget('<selector>')}\` (a selector per domain)`,
  `- return_path: MX \`${f.returnPathName('<domain>')}\` → \`${f.returnPathMx}\``,
  `- dmarc: TXT \`${f.dmarcName('<domain>')}\` → \`${f.dmarcValue}\``,
  `\`${MAIL_HOST}\` is the simulated provider's mail host. A record's \`status\`: \`pending\` (not checked yet, or still propagating),`,
  '`valid`, `invalid` (the name answers, no value matches; names, CNAME and MX targets compare case-insensitively, values trimmed),',
  '`missing` (no such name or no record of that type).',
].join('\n');

const LIFECYCLE = [
  'Status (spec: Sending domain status): a check asks DNS for every record (on the local service, the sandbox DNS table:',
  '`PUT /v1/sandbox/dns/{name}`). All required records valid → `verified`; a required record missing or wrong → `failed`',
  '(`degraded` for a domain that is or was verified: sending is blocked); records still propagating leave the status as it is.',
  '`failed` and `degraded` return to `verified` when fixed.',
  `Automatic checks on the service clock: a domain never verified is re-checked every ${s.earlyEverySecs / 60} min during its first`,
  `${s.earlyForSecs / 60} min, then every ${s.thenEverySecs / 3600} h, until ${DOMAIN_TIMINGS.recheckForSecs / 3600} h after creation; a domain that was ever verified is checked every`,
  `${s.verifiedEverySecs / 3600} h, forever. A domain never verified ${DOMAIN_TIMINGS.releaseAfterSecs / 86_400} days after creation is released: it is deleted and`,
  `\`domain.expired\` is emitted (\`status\` \`${EXPIRED_STATUS}\`); adding it again starts over. A domain ever verified is never released.`,
  'Events `domain.verified`, `domain.failed`, `domain.degraded`, `domain.expired` carry `{domainId, domain, status}` and are emitted only',
  'when the status changes (a check that finds the same failure emits nothing).',
].join('\n');

const RULES = [
  'The name is trimmed, lower-cased, its trailing dot dropped and converted to ASCII (IDN → punycode). Rejected with 400',
  '`validation_error` on `["body","domain"]`, the message naming the rule: bad hostname syntax (labels of 1-63 letters, digits,',
  'inner hyphens; at most 253 characters), IPv4 and IPv6 addresses, single-label hosts, public mailbox providers (a curated list:',
  'Gmail, Outlook/Hotmail, Yahoo, iCloud, Proton, GMX, Mail.ru, QQ, ISP mailboxes…) and disposable email domains (the',
  '`disposable-email-domains` list), a subdomain of a listed domain included.',
  'A domain belongs to one account: one another account has → 409 `conflict`; one this account has → 409 naming its id.',
  '',
  ZONE_RULES_TEXT,
].join('\n');

export function domainsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/domains',
    {
      schema: {
        tags,
        summary: 'Add a sending domain',
        description: [
          'A `pending` domain with the DNS records to publish (201). No check runs now: publish the records, then verify (or wait',
          'for an automatic re-check). Accepts `Idempotency-Key`.',
          '',
          RULES,
          '',
          RECORDS,
          '',
          LIFECYCLE,
        ].join('\n'),
        body: CreateDomainBody,
        response: { 201: DomainSchema },
      },
    },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => domainView(await createDomain(tx, req.auth, req.body.domain)));
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/domains',
    {
      schema: {
        tags,
        summary: 'List sending domains, newest first',
        description: 'Filter `status`. Keyset-paged with `limit` and `cursor`; `?format=array` answers a bare array.',
        querystring: ListDomainsQuery,
        response: { 200: listResponse(DomainSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status } = req.query;
      const page = await deps.uow.read((tx) => listDomains(tx, req.auth, { status }, limit, cursor));
      return sendList(req, reply, { ...page, data: page.data.map(domainView) });
    },
  );

  r.get(
    '/v1/domains/:id',
    {
      schema: { tags, summary: 'Get a sending domain', description: "Its status and records as the last check saw them. Another account's domain is `not_found`.", params: IdParams, response: { 200: DomainSchema } },
    },
    async (req) => domainView(await deps.uow.read((tx) => getDomain(tx, req.auth, req.params.id))),
  );

  r.post(
    '/v1/domains/:id/verify',
    {
      schema: {
        tags,
        summary: 'Check a sending domain now',
        description: [
          'Checks every record now and answers 200 with the domain: read `status`, which is authoritative (200 does not mean',
          'verified). The same table applies as to an automatic check.',
          '',
          LIFECYCLE,
        ].join('\n'),
        params: IdParams,
        response: { 200: DomainSchema },
      },
    },
    async (req) => domainView(await verifyDomain(deps, req.auth, req.params.id)),
  );

  r.delete(
    '/v1/domains/:id',
    {
      schema: {
        tags,
        summary: 'Remove a sending domain',
        description: 'Deletes the domain (204); its scheduled checks and release then do nothing, and it can be added again (by any account). A domain added with a live key is a live key\'s to delete: a test key is `403 forbidden` (contract §2).',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      (await deps.uow.write(async (tx) => await deleteDomain(tx, req.auth, req.params.id)));
      return reply.status(204).send(null);
    },
  );
}
