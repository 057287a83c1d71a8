import type { ApiClient } from '../client/client.js';
import type { Call } from '../schemas/calls.js';
import type { Device, DevicePresenceBody, DeviceToken, RegisterDeviceBody, SoftphoneCallBody } from '../schemas/softphone.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function or list descriptor per endpoint. spec: Softphone; contract §6.
const deviceParser = responseParser('DeviceSchema');
const deviceTokenParser = responseParser('DeviceTokenSchema');
const callParser = responseParser('CallSchema');

const devicePath = (id: string, tail = ''): string => `/v1/webrtc/devices/${encodeURIComponent(id)}${tail}`;

/** POST /v1/webrtc/devices: `201` a new device, `200` the same device when the user already has that label. */
export async function registerDevice(client: ApiClient, body: RegisterDeviceBody): Promise<{ device: Device; created: boolean }> {
  const res = await client.request({ method: 'POST', path: '/v1/webrtc/devices', body, schema: deviceParser });
  return { device: res.data, created: res.status === 201 };
}

/** GET /v1/webrtc/devices. */
export const deviceList = listEndpoint<Device>({ path: '/v1/webrtc/devices', row: 'DeviceSchema' });

export async function removeDevice(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: devicePath(id) });
}

/** POST .../{id}/token → `{token, expiresAt}` (10 minutes of wall-clock time). */
export async function mintDeviceToken(client: ApiClient, id: string): Promise<DeviceToken> {
  return (await client.request({ method: 'POST', path: devicePath(id, '/token'), schema: deviceTokenParser })).data;
}

/** POST .../{id}/presence `{status}`: a heartbeat (`online`) or going away (`offline`) → the device. */
export async function setDevicePresence(client: ApiClient, id: string, body: DevicePresenceBody): Promise<Device> {
  return (await client.request({ method: 'POST', path: devicePath(id, '/presence'), body, schema: deviceParser })).data;
}

/** POST /v1/webrtc/calls `{deviceId, from, to}` → `201` the outbound Call. */
export async function placeSoftphoneCall(client: ApiClient, body: SoftphoneCallBody): Promise<Call> {
  return (await client.request({ method: 'POST', path: '/v1/webrtc/calls', body, schema: callParser })).data;
}
