import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DevicePresenceBody, DeviceSchema, DeviceTokenSchema, ListDevicesQuery, RegisterDeviceBody } from '../../api/schemas/softphone.js';
import { IdParams, NoContent } from '../../api/schemas/common.js';
import { DEVICE_STALE_AFTER_SECS, DEVICE_TOKEN_TTL_SECS } from '../../api/values/calls.js';
import type { ServiceDeps } from '../deps.js';
import { deleteDevice, getDevice, listDevices, mintDeviceToken, recordHeartbeat, registerDevice } from '../domain/voice/devices.js';
import { deviceView } from '../views/devices.js';
import { iso } from '../clock.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';

// spec: Softphone; contract §6 (Softphone): devices, login tokens, presence. Outbound calls placed
// through a device (POST /v1/webrtc/calls) live with the calls routes.

const PRESENCE_RULE = `\`presence\` reads \`online\` only while heartbeats arrive: a device whose last heartbeat said \`online\` more than ${DEVICE_STALE_AFTER_SECS} s ago (service clock) reads \`offline\`, and a ring wave skips it.`;

export function softphoneRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['softphone'];
  const view = (d: Parameters<typeof deviceView>[0]) => deviceView(d, deps.clock.nowMs());

  r.post(
    '/v1/webrtc/devices',
    {
      schema: {
        tags,
        summary: 'Register a softphone device (201), or get the same device back (200) when that user already has that label',
        description: ['Idempotent per user and label. A new device is `offline` with `lastSeenAt: null` until its first heartbeat.', '', PRESENCE_RULE].join('\n'),
        body: RegisterDeviceBody,
        response: { 200: DeviceSchema, 201: DeviceSchema },
      },
    },
    async (req, reply) => {
      let created = true;
      const device = await commitOnce(deps, req, () => (created ? 201 : 200), async (tx) => {
        const result = await registerDevice(tx, req.auth, req.body);
        created = result.created;
        return view(result.device);
      });
      return reply.status(created ? 201 : 200).send(device);
    },
  );

  r.get(
    '/v1/webrtc/devices',
    { schema: { tags, summary: 'List softphone devices, newest first', description: PRESENCE_RULE, querystring: ListDevicesQuery, response: { 200: listResponse(DeviceSchema) } } },
    async (req, reply) => {
      const page = await deps.uow.read((tx) => listDevices(tx, req.auth, req.query.limit, req.query.cursor));
      return sendList(req, reply, { ...page, data: page.data.map(view) });
    },
  );

  r.get(
    '/v1/webrtc/devices/:id',
    { schema: { tags, summary: 'Get a softphone device', description: PRESENCE_RULE, params: IdParams, response: { 200: DeviceSchema } } },
    async (req) => view(await deps.uow.read((tx) => getDevice(tx, req.auth, req.params.id))),
  );

  r.delete(
    '/v1/webrtc/devices/:id',
    {
      schema: {
        tags,
        summary: 'Delete a softphone device',
        description: [
          'Allowed even when a call route names the device: calls keep working, as the call engine skips a device that',
          'no longer exists (trace `leg.skipped`, "no such device") and rings the other destinations. Saving that route',
          'again is refused until the destination is changed (a webrtc destination must be a device of the account).',
        ].join('\n'),
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      (await deps.uow.write(async (tx) => await deleteDevice(tx, req.auth, req.params.id)));
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/v1/webrtc/devices/:id/token',
    {
      schema: {
        tags,
        summary: 'Mint a short-lived login token for the device',
        description: [
          `Valid for ${DEVICE_TOKEN_TTL_SECS / 60} minutes of real wall-clock time (never the service's advanced clock, like webhook`,
          'signatures); signed with HMAC-SHA256 under a secret the service generates once and keeps, so a restart',
          'keeps tokens valid. It carries the device, the account and the expiry. Mint a new one when registration fails.',
        ].join('\n'),
        params: IdParams,
        response: { 200: DeviceTokenSchema },
      },
    },
    async (req) => {
      const { token, expiresAt } = await deps.uow.write((tx) => mintDeviceToken(tx, req.auth, req.params.id));
      return { token, expiresAt: iso(expiresAt) };
    },
  );

  r.post(
    '/v1/webrtc/devices/:id/presence',
    {
      schema: {
        tags,
        summary: 'Heartbeat: `online` about every 20 s while registered, `offline` when the page hides',
        description: ['`lastSeenAt` becomes the service clock now on every heartbeat, whatever the status.', '', PRESENCE_RULE].join('\n'),
        params: IdParams,
        body: DevicePresenceBody,
        response: { 200: DeviceSchema },
      },
    },
    async (req) => view((await deps.uow.write(async (tx) => await recordHeartbeat(tx, req.auth, req.params.id, req.body.status)))),
  );
}
