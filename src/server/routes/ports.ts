import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../api/schemas/common.js';
import { CreatePortBody, ListPortsQuery, PortCheckBody, PortCheckSchema, PortDocumentBody, PortSchema } from '../../api/schemas/ports.js';
import { PORT_LIMITS, PORT_TIMINGS } from '../../api/values/registration.js';
import { PRICES } from '../../api/values/prices.js';
import type { ServiceDeps } from '../deps.js';
import { addPortDocument, cancelPort, checkPortability, createPort, getPort, listPorts, submitPort } from '../domain/ports.js';
import { ACCOUNT_MISMATCH_REASON, NOT_PORTABLE, PORT_REASONS, REJECTED_ACCOUNT_NUMBER } from '../../api/values/registration.js';
import { portCheckView, portView } from '../views/ports.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// contract §7 (ports); spec: Ports endpoints. Decisions are in the descriptions, so they land in /openapi.json.

const tags = ['ports'];
const hours = (secs: number) => `${secs / 3600} h`;

const PORTABILITY_RULES = [
  'Portability (the simulated registry, deterministic; first rule that applies): a number any account of this service owns →',
  `"${PORT_REASONS.alreadyOnService}"; a number another open port (draft, submitted, foc_scheduled) holds → "${PORT_REASONS.openPort}";`,
  `not +1 with 10 digits → "${NOT_PORTABLE.notNanp}"; a reserved or fictional number (500-555-xxxx, NXX-555-01xx) → "${NOT_PORTABLE.reserved}";`,
  `a number of this service's own inventory (offered by POST /v1/numbers/search) → "${NOT_PORTABLE.ourInventory}";`,
  `an area code no carrier serves → "${NOT_PORTABLE.unknownAreaCode}"; a line number 9900-9999 (last four digits 99xx) →`,
  `"${NOT_PORTABLE.noPortOut}". Anything else is portable (toll-free numbers included), \`reason\` null.`,
].join('\n');

const LIFECYCLE = [
  `Life of a port: \`draft\` → (submit) \`submitted\` → ${hours(PORT_TIMINGS.focScheduledAfterSecs)} later on the service clock the losing carrier answers:`,
  `\`foc_scheduled\` with \`focDate\` ${hours(PORT_TIMINGS.focDateAfterSecs)} later, or \`rejected\` with \`rejectionReason\` — the losing carrier rejects`,
  `an \`accountNumber\` of \`${REJECTED_ACCOUNT_NUMBER}\` ("${ACCOUNT_MISMATCH_REASON}"), so a sandbox user can cause it. At the FOC date the port is`,
  '`completed`: its numbers become the account\'s numbers, status `idle`, type from the prefix (toll-free or local), SMS, MMS and voice,',
  '(listed by GET /v1/numbers). `POST /v1/sandbox/ports/{id}/decision` decides a submitted port at once.',
  '',
  'Event `port.updated` on every move, creation included, in the transaction of the move: `{portId, status, previousStatus (null on',
  'creation), phoneNumbers, focDate, rejectionReason}` plus the event\'s `id`, `type`, `createdAt`.',
].join('\n');

const CREATE_DESCRIPTION = [
  'Opens a port request, status `draft` (201). Every number must be portable: each one that is not, or is listed twice, is a',
  '400 `validation_error` detail on `["body","phoneNumbers",i]` whose message carries the reason; all are reported at once and nothing',
  'is created. The port-out `pin` is passed to the losing carrier and never stored or shown: responses carry no `pin`.',
  'Accepts `Idempotency-Key`: the same key and body replay the original 201 with `Idempotent-Replayed: true` and open nothing',
  'new; the same key with another body → 409.',
  '',
  PORTABILITY_RULES,
  '',
  LIFECYCLE,
].join('\n');

// The JSON body carries the document in base64 (4 characters per 3 bytes) plus a little JSON.
const DOCUMENT_BODY_LIMIT = Math.ceil(PORT_LIMITS.documentBytes / 3) * 4 + 64 * 1024;

export function portsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/ports/check',
    {
      schema: {
        tags,
        summary: 'Check whether numbers can be ported in',
        description: `One answer per number, in the order given: \`{phoneNumber, portable, reason}\`.\n\n${PORTABILITY_RULES}`,
        body: PortCheckBody,
        response: { 200: PortCheckSchema },
      },
    },
    async (req) => portCheckView((await deps.uow.write((tx) => checkPortability(tx, req.auth, req.body.phoneNumbers)))),
  );

  r.post(
    '/v1/ports',
    { schema: { tags, summary: 'Open a port request', description: CREATE_DESCRIPTION, body: CreatePortBody, response: { 201: PortSchema } } },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => portView(await createPort(tx, req.auth, req.body)));
      return reply.status(201).send(created);
    },
  );

  r.post(
    '/v1/ports/:id/documents',
    {
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Attach a letter of authorization or a bill',
        description: [
          '`{type: loa|bill, filename, contentBase64}` → the port. Only while the port is `draft`, else 409. The content is standard,',
          `padded base64 of at most ${PORT_LIMITS.documentBytes} bytes decoded; anything else is a \`validation_error\` on`,
          '`["body","contentBase64"]`. A port keeps one document per type: a new upload replaces the earlier one of its type.',
          'Documents are private: the port lists them (`id`, `type`, `filename`, `sizeBytes`, `uploadedAt`), never their content.',
        ].join('\n'),
        params: IdParams,
        body: PortDocumentBody,
        response: { 200: PortSchema },
      },
    },
    async (req) => portView((await deps.uow.write(async (tx) => await addPortDocument(tx, req.auth, req.params.id, req.body)))),
  );

  r.post(
    '/v1/ports/:id/submit',
    {
      schema: {
        tags,
        summary: 'Submit a port request to the losing carrier',
        description: [
          'A `draft` port with an `loa` and a `bill` → `submitted`. A missing document → 409 `conflict` naming it (details',
          '`["documents","loa"]`, `["documents","bill"]`); a port that is not `draft` → 409.',
          `Price (contract §11): ${PRICES.portPerNumber} cents per number, recorded as usage when the port is submitted with a live key`,
          '(test keys record none); a later rejection or cancellation does not refund it.',
          '',
          LIFECYCLE,
        ].join('\n'),
        params: IdParams,
        response: { 200: PortSchema },
      },
    },
    async (req) => portView((await deps.uow.write(async (tx) => await submitPort(tx, req.auth, req.params.id)))),
  );

  r.post(
    '/v1/ports/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a port request',
        description: 'A `draft`, `submitted` or `foc_scheduled` port → `canceled` (its numbers are free to port again). A `completed`, `rejected` or `canceled` port → 409.',
        params: IdParams,
        response: { 200: PortSchema },
      },
    },
    async (req) => portView((await deps.uow.write(async (tx) => await cancelPort(tx, req.auth, req.params.id)))),
  );

  r.get(
    '/v1/ports',
    {
      schema: {
        tags,
        summary: 'List port requests, newest first',
        description: 'Filter `status`. Keyset-paged with `limit` and `cursor`; `?format=array` answers a bare array.',
        querystring: ListPortsQuery,
        response: { 200: listResponse(PortSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status } = req.query;
      const page = await deps.uow.read((tx) => listPorts(tx, req.auth, { status }, limit, cursor));
      return sendList(req, reply, { ...page, data: page.data.map(portView) });
    },
  );

  r.get(
    '/v1/ports/:id',
    {
      schema: { tags, summary: 'Get a port request', description: "Its progress. Another account's port is `not_found`.", params: IdParams, response: { 200: PortSchema } },
    },
    async (req) => portView(await deps.uow.read((tx) => getPort(tx, req.auth, req.params.id))),
  );
}
