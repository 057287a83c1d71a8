import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AssignNumberBody,
  AvailableNumberSchema,
  BuyNumberBody,
  ListNumbersQuery,
  NumberIdParams,
  PhoneNumberSchema,
  SearchNumbersBody,
  SearchQuery,
  UpdateNumberBody,
  VerifyTollfreeBody,
  type PhoneNumber,
} from '../../api/schemas/numbers.js';
import type { ServiceDeps } from '../deps.js';
import {
  assignNumber,
  buyNumber,
  campaignNames,
  listNumbers,
  releaseNumber,
  resolveNumber,
  searchNumbers,
  updateNumber,
  verifyTollfree,
} from '../domain/numbers.js';
import { routeSummaries } from '../domain/voice/routes.js';
import type { NumberRecord } from '../storage/numbers-repo.js';
import { availableNumberView, numberView } from '../views/numbers.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

/** Numbers rendered with their campaign names (one domain read for the whole page). */
export async function renderNumbers(deps: Pick<ServiceDeps, 'uow'>, records: NumberRecord[]): Promise<PhoneNumber[]> {
  const { names, routes } = await deps.uow.read(async (tx) => ({ names: await campaignNames(tx, records), routes: await routeSummaries(tx, records) }));
  return records.map((n) => numberView(n, names, routes));
}
export const renderNumber = async (deps: Pick<ServiceDeps, 'uow'>, n: NumberRecord): Promise<PhoneNumber> => (await renderNumbers(deps, [n]))[0]!;

export const ID_NOTE =
  'In every `/v1/numbers/{id}` route, `{id}` is the number id (`num_…`) or its E.164 form with the `+` percent-encoded (`%2B`); by E.164 the owned number is found first, else the latest one the account released. Another account\'s number is `not_found`.';

const STATUS_NOTE =
  'Number `status`: `idle` (owned, no campaign), `live` (an approved 10DLC campaign is attached), `released`. `pending` is reserved for numbers still being provisioned (ports, later); nothing in this version sets it.';

// spec: Numbers; contract §5.
export function numbersRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/numbers/search',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Search the carrier inventory for numbers to buy',
        description: [
          'Draws from the simulated inventory: deterministic per area code, never a number any account owns.',
          '`type` is `local` (default) or `tollfree`. A local search needs `areaCode` or `locality` (a locality names the area codes of its city,',
          'e.g. `Austin` or `Austin, TX`); with neither → `validation_error` on `["body","areaCode"]`. Given both, they must agree or nothing matches.',
          'For toll-free, `areaCode` may name a toll-free prefix (800 833 844 855 866 877 888). `contains`: 1-7 digits anywhere in the',
          'national number. `capabilities`: every listed one must be present. Answers up to `limit` (default 20, max 100) matches in the',
          'page envelope with `hasMore: false` (search results are not paged). Extensions per result: `locality`, `region`.',
        ].join('\n'),
        body: SearchNumbersBody,
        querystring: SearchQuery,
        response: { 200: listResponse(AvailableNumberSchema) },
      },
    },
    async (req, reply) => {
      const found = (await deps.uow.read(async (tx) => searchNumbers(tx, req.body))).map(availableNumberView);
      return sendList(req, reply, { data: found, hasMore: false, nextCursor: null });
    },
  );

  r.post(
    '/v1/numbers/buy',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Buy a number',
        description:
          '201 with the Phone number, status `idle` (`tfvStatus` `unverified` for toll-free, `not_applicable` for local). A number the carrier does not sell, or that an account already owns → 409 `conflict`. A live key is charged the first month (local 115, toll-free 215 cents); test keys are not charged. ' +
          STATUS_NOTE,
        body: BuyNumberBody,
        response: { 201: PhoneNumberSchema },
      },
    },
    async (req, reply) => {
      const bought = await commitOnce(deps, req, 201, async (tx) => await renderNumber(tx, await buyNumber(tx, req.auth, req.body.phoneNumber)));
      return reply.status(201).send(bought);
    },
  );

  r.get(
    '/v1/numbers',
    {
      schema: {
        tags: ['numbers'],
        summary: "List the account's numbers, newest first",
        description:
          'Filters `status`, `type`, `campaignId`. Released numbers are listed only with `status=released`. Keyset-paged; `?format=array` answers a bare array. ' +
          STATUS_NOTE,
        querystring: ListNumbersQuery,
        response: { 200: listResponse(PhoneNumberSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status, type, campaignId } = req.query;
      const page = await deps.uow.read((tx) => listNumbers(tx, req.auth, { status, type, campaignId }, limit, cursor));
      return sendList(req, reply, { ...page, data: await renderNumbers(deps, page.data) });
    },
  );

  r.get(
    '/v1/numbers/:id',
    { schema: { tags: ['numbers'], summary: 'Get a number', description: ID_NOTE, params: NumberIdParams, response: { 200: PhoneNumberSchema } } },
    async (req) => renderNumber(deps, await deps.uow.read((tx) => resolveNumber(tx, req.auth, req.params.id))),
  );

  r.patch(
    '/v1/numbers/:id',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Update label, caller ID name or emergency calling',
        description: [
          'All given fields apply together or not at all; give at least one. A released number → 409.',
          '- `label`: up to 64 characters, or null (an empty string also clears it).',
          '- `callerIdName: {name}`: 1-15 characters (letters, digits, spaces, `. , & \' -`); status becomes `pending` and `active` 48 h',
          '  later on the service clock; setting the name it already has changes nothing; `{name: null}` turns it `off`. Needs the',
          '  `voice` capability (else 422 `channel_unsupported`).',
          '- `emergency: {enabled, address?}`: enabling needs an address (given now or already on file) and a voice-capable local',
          '  number (toll-free or no voice → 422 `channel_unsupported`). The address is validated against a ZIP-prefix table: a ZIP that',
          '  does not fit the state → 422 `address_suggestion` with `details.suggested` (the address in the state that fits the ZIP);',
          '  an unassigned ZIP prefix → 400 on `["body","emergency","address","zip"]`. Accepted: status `pending`, `active` 5 minutes',
          '  later on the service clock. Turning it on charges the first month (150 cents, live keys, once per number per calendar',
          '  month). `{enabled: false}` → status `off`, the address is kept.',
          ID_NOTE,
        ].join('\n'),
        params: NumberIdParams,
        body: UpdateNumberBody,
        response: { 200: PhoneNumberSchema },
      },
    },
    async (req) => renderNumber(deps, (await deps.uow.write(async (tx) => await updateNumber(tx, req.auth, req.params.id, req.body)))),
  );

  r.post(
    '/v1/numbers/:id/release',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Release a number back to the carrier',
        description: `200 with the number: status \`released\`, \`releasedAt\` set, campaign detached, emergency calling off. Releasing again → 409. A released number can be bought again. ${ID_NOTE}`,
        params: NumberIdParams,
        response: { 200: PhoneNumberSchema },
      },
    },
    async (req) => renderNumber(deps, (await deps.uow.write(async (tx) => await releaseNumber(tx, req.auth, req.params.id)))),
  );

  r.post(
    '/v1/numbers/:id/assign',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Attach the number to an approved 10DLC campaign, or detach it',
        description: `\`{campaignId}\` attaches (status \`live\`), \`{campaignId: null}\` detaches (status \`idle\`). The campaign must be the account's (else 404) and \`approved\` (else 409). Toll-free numbers, and numbers without the \`sms\` capability → 422 \`channel_unsupported\`. Released → 409. ${ID_NOTE}`,
        params: NumberIdParams,
        body: AssignNumberBody,
        response: { 200: PhoneNumberSchema },
      },
    },
    async (req) => renderNumber(deps, (await deps.uow.write(async (tx) => await assignNumber(tx, req.auth, req.params.id, req.body.campaignId)))),
  );

  r.post(
    '/v1/numbers/:id/verify-tollfree',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Submit toll-free verification',
        description: `200 with the number, \`tfvStatus: pending\`. A local number, or a verification already \`pending\` or \`verified\` → 409 (\`rejected\` and \`action_required\` may resubmit). The carrier decides 72 h later on the service clock: \`rejected\` with \`tfvRejectionReason\` when \`website\` is missing or \`sampleMessage\` has no opt-out language (STOP, STOPALL, UNSUBSCRIBE, CANCEL, QUIT, opt out), else \`verified\`. \`monthlyVolume\` is a message count. ${ID_NOTE}`,
        params: NumberIdParams,
        body: VerifyTollfreeBody,
        response: { 200: PhoneNumberSchema },
      },
    },
    async (req) => renderNumber(deps, (await deps.uow.write(async (tx) => await verifyTollfree(tx, req.auth, req.params.id, req.body)))),
  );
}
