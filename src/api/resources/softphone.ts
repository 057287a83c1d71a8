import type { ApiClient } from '../client/client.js';
import type { Call } from '../schemas/calls.js';
import type { Device, DevicePresenceBody, DeviceToken, RegisterDeviceBody, SoftphoneCallBody } from '../schemas/softphone.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { callBare, pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint. spec: Softphone; contract §6.
const deviceParser = responseParser('DeviceSchema');
const deviceTokenParser = responseParser('DeviceTokenSchema');
const callParser = responseParser('CallSchema');

export const softphoneEndpoints = {
  register: { method: 'POST', path: '/v1/webrtc/devices' },
  remove: { method: 'DELETE', path: '/v1/webrtc/devices/{id}' },
  token: { method: 'POST', path: '/v1/webrtc/devices/{id}/token' },
  presence: { method: 'POST', path: '/v1/webrtc/devices/{id}/presence' },
  call: { method: 'POST', path: '/v1/webrtc/calls' },
} as const satisfies Record<string, EndpointRef>;

/** POST /v1/webrtc/devices: `201` a new device, `200` the same device when the user already has that label. */
export async function registerDevice(client: ApiClient, body: RegisterDeviceBody): Promise<{ device: Device; created: boolean }> {
  const res = await client.request({ method: 'POST', path: softphoneEndpoints.register.path, body, schema: deviceParser });
  return { device: res.data, created: res.status === 201 };
}

/** GET /v1/webrtc/devices. */
export const deviceList = listEndpoint<Device>({ path: '/v1/webrtc/devices', row: 'DeviceSchema' });

export async function removeDevice(client: ApiClient, id: string): Promise<void> {
  await callBare(client, softphoneEndpoints.remove, { id });
}

/** POST .../{id}/token → `{token, expiresAt}` (10 minutes of wall-clock time). */
export async function mintDeviceToken(client: ApiClient, id: string): Promise<DeviceToken> {
  return (await client.request({ method: 'POST', path: pathOf(softphoneEndpoints.token, { id }), schema: deviceTokenParser })).data;
}

/** POST .../{id}/presence `{status}`: a heartbeat (`online`) or going away (`offline`) → the device. */
export async function setDevicePresence(client: ApiClient, id: string, body: DevicePresenceBody): Promise<Device> {
  return (await client.request({ method: 'POST', path: pathOf(softphoneEndpoints.presence, { id }), body, schema: deviceParser })).data;
}

/** POST /v1/webrtc/calls `{deviceId, from, to}` → `201` the outbound Call. */
export async function placeSoftphoneCall(client: ApiClient, body: SoftphoneCallBody): Promise<Call> {
  return (await client.request({ method: 'POST', path: softphoneEndpoints.call.path, body, schema: callParser })).data;
}
